import OpeningHours from 'opening_hours';
import type { City } from '../core/cities/cities.ts';
import { MINUTES_PER_WEEK } from '../core/local-time.ts';
import { TIME_WINDOW_DATES, TIME_WINDOW_WEEKLY } from '../core/graph/rules.ts';
import type { Warnings } from './warnings.ts';

/**
 * OSM time conditions (`opening_hours`, the part after `@` in `*:conditional` tags, old
 * `day_on`/`hour_on` restriction tags) compiled at build time into interval lists the router
 * evaluates with a binary search. Parsing is done by the opening_hours library; nothing here
 * interprets the syntax itself.
 *
 * Recurring schedules that are the same every week become TIME_WINDOW_WEEKLY intervals; anything
 * that depends on the date (date ranges, public holidays, sunrise/sunset) is expanded into
 * TIME_WINDOW_DATES intervals over the build horizon, which is safe because graphs are rebuilt
 * daily (spec 1.2.3).
 */

export interface TimeWindow {
  readonly kind: typeof TIME_WINDOW_WEEKLY | typeof TIME_WINDOW_DATES;
  /** Flat [start, end, start, end, ...] in local minutes. */
  readonly intervals: readonly number[];
  readonly source: string;
  /** A date-range window (spec 1.2.6 "fixed start and end date") rather than a recurring one. */
  readonly dated: boolean;
}

export interface ConditionalPart {
  readonly value: string;
  readonly condition: string;
}

/** The days before and after the build covered by TIME_WINDOW_DATES windows. */
const HORIZON_DAYS_BEFORE = 2;
const HORIZON_DAYS_AFTER = 400;
/** A Monday in a month without DST changes in any of the cities' zones. */
const REFERENCE_MONDAY: readonly [number, number, number] = [2024, 0, 8];
const DATE_DEPENDENT = /\b(sunrise|sunset|dawn|dusk|PH|SH|easter|week\s*\d)|\b(19|20)\d\d\b|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/i;
const DATE_RANGE = /\b(19|20)\d\d\b|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/i;

/**
 * Splits a conditional tag value (`no @ (Mo-Fr 07:00-10:00); yes @ (Sa)`) into parts. A condition
 * without parentheses runs to the end of the value, since it may itself contain `;`.
 */
export function parseConditional(tagValue: string): ConditionalPart[] {
  const parts: ConditionalPart[] = [];
  let rest = tagValue.trim();
  while (rest.length > 0) {
    const at = rest.indexOf('@');
    if (at < 0) break;
    const value = rest.slice(0, at).trim();
    let afterAt = rest.slice(at + 1).trim();
    let condition: string;
    if (afterAt.startsWith('(')) {
      let depth = 0;
      let end = -1;
      for (let i = 0; i < afterAt.length; i++) {
        if (afterAt[i] === '(') depth++;
        else if (afterAt[i] === ')' && --depth === 0) {
          end = i;
          break;
        }
      }
      if (end < 0) {
        condition = afterAt.slice(1);
        afterAt = '';
      } else {
        condition = afterAt.slice(1, end);
        afterAt = afterAt.slice(end + 1).trim();
      }
    } else {
      condition = afterAt;
      afterAt = '';
    }
    parts.push({ value, condition: condition.trim() });
    rest = afterAt.startsWith(';') ? afterAt.slice(1).trim() : afterAt;
  }
  return parts;
}

const DAY_NAMES: Record<string, string> = {
  monday: 'Mo', tuesday: 'Tu', wednesday: 'We', thursday: 'Th', friday: 'Fr', saturday: 'Sa', sunday: 'Su',
};

/** The pre-conditional restriction tagging `day_on=Monday, day_off=Friday, hour_on=07:00, hour_off=10:00`. */
export function legacyRestrictionCondition(tags: Record<string, string>): string | null {
  const day = (value: string | undefined): string | undefined =>
    value === undefined ? undefined : (DAY_NAMES[value.trim().toLowerCase()] ?? value.trim().slice(0, 2));
  const dayOn = day(tags.day_on);
  const dayOff = day(tags.day_off);
  const hours = tags.hour_on && tags.hour_off ? `${tags.hour_on.trim()}-${tags.hour_off.trim()}` : '';
  const days = dayOn ? (dayOff && dayOff !== dayOn ? `${dayOn}-${dayOff}` : dayOn) : '';
  const condition = [days, hours].filter(Boolean).join(' ');
  return condition || null;
}

function withTimeZone<T>(timeZone: string, action: () => T): T {
  // opening_hours works in the process's local time; evaluating in the city's zone makes its
  // Date getters read the city's wall clock. Synchronous, so nothing else runs meanwhile.
  const previous = process.env.TZ;
  process.env.TZ = timeZone;
  try {
    return action();
  } finally {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  }
}

const wallClockMinutes = (date: Date): number =>
  Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes()) / 60_000;

/** Compiles and de-duplicates the time windows of one city's graph. */
export class TimeWindowCompiler {
  readonly windows: TimeWindow[] = [];
  private readonly byExpression = new Map<string, number | null>();
  private readonly place: object;
  readonly horizon: readonly [number, number];
  private readonly horizonDates: readonly [readonly [number, number, number], readonly [number, number, number]];

  constructor(
    private readonly city: City,
    builtAt: Date,
    private readonly warnings: Warnings,
  ) {
    // opening_hours uses the coordinates for sunrise/sunset and the address for public holidays;
    // it only reads coordinates when the object looks like a Nominatim answer (has place_id).
    this.place = {
      place_id: 0,
      lat: String(city.center[1]),
      lon: String(city.center[0]),
      address: { country_code: city.countryCode, state: city.region },
    };
    const startDay = new Date(Date.UTC(builtAt.getUTCFullYear(), builtAt.getUTCMonth(), builtAt.getUTCDate() - HORIZON_DAYS_BEFORE));
    const endDay = new Date(Date.UTC(builtAt.getUTCFullYear(), builtAt.getUTCMonth(), builtAt.getUTCDate() + HORIZON_DAYS_AFTER));
    this.horizonDates = [
      [startDay.getUTCFullYear(), startDay.getUTCMonth(), startDay.getUTCDate()],
      [endDay.getUTCFullYear(), endDay.getUTCMonth(), endDay.getUTCDate()],
    ];
    this.horizon = [startDay.getTime() / 60_000, endDay.getTime() / 60_000];
  }

  /**
   * Index of the window for an opening_hours expression, or null (counted under `warningKey`)
   * when the library cannot parse it, e.g. `wet` or `length > 33'`.
   */
  compile(expression: string, warningKey: string): number | null {
    const key = expression.trim();
    if (this.byExpression.has(key)) {
      const known = this.byExpression.get(key)!;
      if (known === null) this.warnings.count(warningKey, key);
      return known;
    }
    let window: TimeWindow | null;
    try {
      window = withTimeZone(this.city.timeZone, () => this.evaluate(key));
    } catch {
      window = null;
    }
    let index: number | null = null;
    if (window) {
      index = this.windows.length;
      this.windows.push(window);
    } else {
      this.warnings.count(warningKey, key);
    }
    this.byExpression.set(key, index);
    return index;
  }

  private evaluate(expression: string): TimeWindow {
    const hours = new OpeningHours(expression, this.place as never, 0 as never);
    const dateDependent = DATE_DEPENDENT.test(expression) || !hours.isWeekStable();
    if (!dateDependent) {
      const [y, m, d] = REFERENCE_MONDAY;
      const monday = new Date(y, m, d);
      const intervals: number[] = [];
      const base = wallClockMinutes(monday);
      for (const [from, to, unknown] of hours.getOpenIntervals(monday, new Date(y, m, d + 7))) {
        if (unknown) continue;
        intervals.push(wallClockMinutes(from) - base, Math.min(wallClockMinutes(to) - base, MINUTES_PER_WEEK));
      }
      return { kind: TIME_WINDOW_WEEKLY, intervals: mergeIntervals(intervals), source: expression, dated: false };
    }
    // Day by day: opening_hours throws for a whole range when sunrise or sunset falls in a DST
    // gap ("does not occur on this date"); such a day repeats the day before instead.
    const [[startYear, startMonth, startDay], [endYear, endMonth, endDay]] = this.horizonDates;
    const last = new Date(endYear, endMonth, endDay).getTime();
    const intervals: number[] = [];
    let previousDay: number[] = [];
    for (let day = 0; new Date(startYear, startMonth, startDay + day).getTime() < last; day++) {
      const from = new Date(startYear, startMonth, startDay + day);
      let today: number[] = [];
      try {
        for (const [open, close, unknown] of hours.getOpenIntervals(from, new Date(startYear, startMonth, startDay + day + 1))) {
          if (!unknown) today.push(wallClockMinutes(open), wallClockMinutes(close));
        }
      } catch {
        today = previousDay.map((minute) => minute + 1440);
      }
      intervals.push(...today);
      previousDay = today;
    }
    return { kind: TIME_WINDOW_DATES, intervals: mergeIntervals(intervals), source: expression, dated: DATE_RANGE.test(expression) };
  }
}

/** Sorts and merges touching or overlapping [start, end) pairs so the router can binary-search. */
function mergeIntervals(flat: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < flat.length; i += 2) if (flat[i + 1]! > flat[i]!) pairs.push([flat[i]!, flat[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [start, end] of pairs) {
    const last = merged.length - 1;
    if (last > 0 && start <= merged[last]!) merged[last] = Math.max(merged[last]!, end);
    else merged.push(start, end);
  }
  return merged;
}
