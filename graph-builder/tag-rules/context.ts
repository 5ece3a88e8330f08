import type { Warnings } from '../warnings.ts';

/** What every tag rule may read besides the way's tags. */

export type DrivingSide = 'left' | 'right';

export interface RuleContext {
  readonly drivingSide: DrivingSide;
  /** The city has street-lighting data (spec 1.2.2): untagged public streets count as lit. */
  readonly lightingData: boolean;
  readonly warnings: Warnings;
}
