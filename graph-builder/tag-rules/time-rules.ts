import type { Profile } from '../../core/graph/profiles.ts';
import type { Tags } from '../osm/types.ts';
import { parseConditional } from '../time-windows.ts';
import { ACCESS_VALUES } from './access.ts';

/** Time-limited closures from conditional access tags and opening hours (spec 1.2.6). */

export interface TimeRule {
  readonly cycling: boolean;
  readonly walking: boolean;
  /** The opening_hours expression; closed while it is active, or while it is not (outsideWindow). */
  readonly condition: string;
  readonly outsideWindow: boolean;
  /**
   * The rule is the only reason the mode may use the way (`access=no` + `access:conditional=yes @ ...`).
   * If its condition cannot be parsed the way stays closed to that mode, as tagged without it.
   */
  readonly grantsAccess: boolean;
  /** The tag it came from, for the report and the graph's closure table. */
  readonly source: string;
}

/**
 * Time-limited closures (spec 1.2.6) from `<mode>:conditional` (the most specific key wins:
 * bicycle > vehicle > access for cycling; foot > access for walking) and `opening_hours`.
 * `no @ (window)` closes during the window; `yes @ (window)` on a way otherwise closed opens it
 * only during the window. Conditions are compiled (or rejected and counted) later.
 */
export function timeRulesRule(tags: Tags, cyclingDenied: boolean, walkingDenied: boolean): TimeRule[] {
  const rules: TimeRule[] = [];
  const fromConditional = (keys: readonly string[], denied: boolean, profile: Profile): void => {
    const key = keys.find((candidate) => tags[candidate] !== undefined);
    if (!key) return;
    for (const { value, condition } of parseConditional(tags[key]!)) {
      const verdict = ACCESS_VALUES[value];
      if (verdict === 'denied' && !denied) {
        rules.push({ cycling: profile === 'cycling', walking: profile === 'walking', condition, outsideWindow: false, grantsAccess: false, source: `${key}=${tags[key]}` });
      } else if (verdict === 'allowed' && denied) {
        rules.push({ cycling: profile === 'cycling', walking: profile === 'walking', condition, outsideWindow: true, grantsAccess: true, source: `${key}=${tags[key]}` });
      }
    }
  };
  fromConditional(['bicycle:conditional', 'vehicle:conditional', 'access:conditional'], cyclingDenied, 'cycling');
  fromConditional(['foot:conditional', 'access:conditional'], walkingDenied, 'walking');
  const hours = tags.opening_hours?.trim();
  if (hours && hours !== '24/7') {
    rules.push({ cycling: true, walking: true, condition: hours, outsideWindow: true, grantsAccess: false, source: `opening_hours=${hours}` });
  }
  // The same condition for both modes is one closure.
  const merged: TimeRule[] = [];
  for (const rule of rules) {
    const twin = merged.findIndex((other) => other.condition === rule.condition && other.outsideWindow === rule.outsideWindow && other.source === rule.source);
    if (twin >= 0) merged[twin] = { ...merged[twin]!, cycling: merged[twin]!.cycling || rule.cycling, walking: merged[twin]!.walking || rule.walking };
    else merged.push(rule);
  }
  return merged;
}
