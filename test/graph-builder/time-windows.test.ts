import { describe, expect, it } from 'vitest';
import { cities } from '../../core/cities/cities.ts';
import { MINUTES_PER_WEEK, localMinutes } from '../../core/local-time.ts';
import { TIME_WINDOW_DATES, TIME_WINDOW_WEEKLY } from '../../core/graph/rules.ts';
import { TimeWindowCompiler, legacyRestrictionCondition, parseConditional } from '../../graph-builder/time-windows.ts';
import { Warnings } from '../../graph-builder/warnings.ts';

const builtAt = new Date('2026-11-20T12:00:00Z');
const compiler = (city = cities.london): { windows: TimeWindowCompiler; warnings: Warnings } => {
  const warnings = new Warnings();
  return { windows: new TimeWindowCompiler(city, builtAt, warnings), warnings };
};
const intervalsAround = (intervals: readonly number[], from: number, to: number): number[] =>
  intervals.filter((_, i) => i % 2 === 0 && intervals[i]! >= from && intervals[i]! < to).flatMap((start) => [start, intervals[intervals.indexOf(start) + 1]!]);

describe('parseConditional', () => {
  it('splits values and parenthesised conditions, and takes an unparenthesised condition to the end', () => {
    expect(parseConditional('no @ (Mo-Fr 07:00-10:00); yes @ (Sa; Su)')).toEqual([
      { value: 'no', condition: 'Mo-Fr 07:00-10:00' },
      { value: 'yes', condition: 'Sa; Su' },
    ]);
    expect(parseConditional('no_left_turn @ Mo-Fr 00:00-15:00; Sa,Su 00:00-24:00')).toEqual([
      { value: 'no_left_turn', condition: 'Mo-Fr 00:00-15:00; Sa,Su 00:00-24:00' },
    ]);
    expect(parseConditional('no')).toEqual([]);
  });

  it('reads legacy day_on/hour_on restriction tags', () => {
    expect(legacyRestrictionCondition({ day_on: 'Monday', day_off: 'Friday', hour_on: '07:00', hour_off: '09:00' })).toBe('Mo-Fr 07:00-09:00');
    expect(legacyRestrictionCondition({ hour_on: '22:00', hour_off: '06:00' })).toBe('22:00-06:00');
    expect(legacyRestrictionCondition({})).toBeNull();
  });
});

describe('TimeWindowCompiler', () => {
  it('compiles a weekly schedule into minutes of the week, splitting at the week boundary', () => {
    const { windows } = compiler();
    const weekdays = windows.windows[windows.compile('Mo-Fr 07:00-10:00', 'x')!]!;
    expect(weekdays.kind).toBe(TIME_WINDOW_WEEKLY);
    expect(weekdays.intervals).toEqual([420, 600, 1860, 2040, 3300, 3480, 4740, 4920, 6180, 6360]);
    const overnight = windows.windows[windows.compile('Su 22:00-02:00', 'x')!]!;
    expect(overnight.intervals).toEqual([0, 120, MINUTES_PER_WEEK - 120, MINUTES_PER_WEEK]);
  });

  it('expands date ranges over the build horizon in local wall-clock minutes', () => {
    const { windows } = compiler();
    const window = windows.windows[windows.compile('2026 Dec 01-2026 Dec 24', 'x')!]!;
    expect(window).toMatchObject({ kind: TIME_WINDOW_DATES, dated: true });
    expect(window.intervals).toEqual([localMinutes(2026, 12, 1, 0, 0), localMinutes(2026, 12, 25, 0, 0)]);
    expect(windows.horizon[0]).toBeLessThan(localMinutes(2026, 11, 20, 0, 0));
    expect(windows.horizon[1]).toBeGreaterThan(localMinutes(2027, 12, 1, 0, 0));
  });

  it('knows public holidays of the city', () => {
    const { windows } = compiler(cities['new-york']);
    const window = windows.windows[windows.compile('Mo-Fr 08:00-10:00; PH off', 'x')!]!;
    expect(window.kind).toBe(TIME_WINDOW_DATES);
    const thanksgivingWeek = intervalsAround(window.intervals, localMinutes(2026, 11, 23, 0, 0), localMinutes(2026, 11, 28, 0, 0));
    expect(thanksgivingWeek).toHaveLength(8); // four weekdays: Thursday 26 November is a holiday
  });

  it('places sunset in the city\'s own time zone', () => {
    const { windows } = compiler(cities['new-york']);
    const window = windows.windows[windows.compile('sunrise-sunset', 'x')!]!;
    const [start, end] = intervalsAround(window.intervals, localMinutes(2026, 12, 1, 0, 0), localMinutes(2026, 12, 2, 0, 0));
    // New York, 1 December: sunrise about 07:00, sunset about 16:30 local time.
    expect(start! - localMinutes(2026, 12, 1, 0, 0)).toBeGreaterThan(6.5 * 60);
    expect(start! - localMinutes(2026, 12, 1, 0, 0)).toBeLessThan(7.5 * 60);
    expect(end! - localMinutes(2026, 12, 1, 0, 0)).toBeGreaterThan(16 * 60);
    expect(end! - localMinutes(2026, 12, 1, 0, 0)).toBeLessThan(17 * 60);
    expect(process.env.TZ).not.toBe('America/New_York');
  });

  it('rejects conditions that are not times, counting each use, and reuses compiled windows', () => {
    const { windows, warnings } = compiler();
    expect(windows.compile('wet', 'unparseable')).toBeNull();
    expect(windows.compile('wet', 'unparseable')).toBeNull();
    expect(windows.compile("length > 33'", 'unparseable')).toBeNull();
    expect(warnings.get('unparseable')).toBe(3);
    expect(windows.compile('Sa 10:00-12:00', 'x')).toBe(windows.compile('Sa 10:00-12:00', 'x'));
  });
});
