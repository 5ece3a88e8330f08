import { LIT_ASSUMED, LIT_NO, LIT_UNKNOWN, LIT_YES } from '../../core/graph/flags.ts';
import type { Tags } from '../osm/types.ts';
import type { RuleContext } from './context.ts';

/** Whether a way is lit at night (spec 1.2.2). */

export const LIT_VALUES: Readonly<Record<string, number>> = {
  yes: LIT_YES, '24/7': LIT_YES, automatic: LIT_YES, limited: LIT_YES, interval: LIT_YES, 'sunset-sunrise': LIT_YES,
  'dusk-dawn': LIT_YES, operating_times: LIT_YES, night: LIT_YES, sunset: LIT_YES,
  no: LIT_NO, disused: LIT_NO, none: LIT_NO,
};

/** Streets lit as a rule in cities with lighting data, when the way has no lit tag. */
const LIT_BY_DEFAULT: ReadonlySet<string> = new Set([
  'trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link', 'tertiary', 'tertiary_link',
  'unclassified', 'residential', 'living_street', 'pedestrian',
]);

export function litRule(tags: Tags, highway: string, context: RuleContext): number {
  const { warnings } = context;
  const raw = tags.lit;
  if (raw === undefined) return context.lightingData && LIT_BY_DEFAULT.has(highway) ? LIT_ASSUMED : LIT_UNKNOWN;
  const lit = LIT_VALUES[raw.trim()];
  if (lit !== undefined) return lit;
  // Lighting hours such as `Mo-Su 18:00-24:00` mean the way is lit at night.
  if (/\d{1,2}:\d{2}/.test(raw)) return LIT_YES;
  warnings.count('ways with unknown lit value (unknown)', raw);
  return LIT_UNKNOWN;
}
