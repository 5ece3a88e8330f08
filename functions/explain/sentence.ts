import { parseReferencedRouteName, type CycleRouteNetwork } from '../../core/graph/cycle-route-names.ts';
import type { Language } from '../../core/language.ts';
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };
import type { RouteFigures } from './figures.ts';

/**
 * The one sentence explaining the safer route (spec 4.3), chosen from the measured differences
 * between the supersafe and the direct route and filled with those figures only, in the rider's
 * language (templates in locales/). docs/explain.md lists every template and when it is used.
 *
 * The sentence names the first of these that the figures show, in this order:
 *   climb               with the hill preference, when it alone sets the routes apart (the two
 *                       would be one without it): how much each climbs;
 *   lit                 at night only: a lit share at least LIT_MIN_POINTS higher (what night
 *                       routing is for);
 *   avoid / avoid_road  at least AVOID_MIN_METRES less riding on busy roads and shared paths (with
 *                       the road that holds at least half of it, when one does);
 *   crossings(_none)    fewer crossings or joins of main roads without signals or an all-way stop;
 *   signed              at least SIGNED_MIN_METRES more on one signed cycle route;
 *   avoid_moderate      at least AVOID_MIN_METRES less on moderately busy roads;
 *   other               the routes differ, and nothing above holds;
 * and ends with what it costs: the extra distance and minutes, whichever there are.
 * Identical routes get `same`.
 */

export const AVOID_MIN_METRES = 50;
export const LIT_MIN_POINTS = 5;
export const SIGNED_MIN_METRES = 200;
/** A road "mostly" holds the avoided riding when it holds at least this share of it. */
export const DOMINANT_SHARE = 0.5;

export const TEMPLATES = ['same', 'climb', 'avoid_road', 'avoid', 'lit', 'crossings_none', 'crossings', 'signed', 'avoid_moderate', 'other'] as const;
export type Template = (typeof TEMPLATES)[number];
export const COSTS = ['longer_slower', 'no_extra', 'slower_only', 'longer_only'] as const;
export type Cost = (typeof COSTS)[number];

interface Locale {
  templates: Record<Template, string>;
  costs: Record<Cost, string>;
  units: Record<'metres' | 'kilometres' | 'decimal_separator' | 'under_a_minute' | 'one_minute' | 'minutes' | 'once' | 'twice' | 'times', string>;
  /** A route known only by its network's reference, as a rider says it ("signed bike route 6", not OpenStreetMap's "LCN 6"). */
  route_networks: Record<CycleRouteNetwork, string>;
}

const locales: Record<Language, Locale> = { en, es };

const fill = (template: string, values: Record<string, string>): string => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** Below 100 m to the metre, below 1 km to 10 m, then to 100 m. */
export function distanceText(language: Language, metres: number): string {
  const units = locales[language].units;
  if (metres >= 995) return fill(units.kilometres, { n: (Math.round(metres / 100) / 10).toFixed(1).replace('.', units.decimal_separator) });
  return fill(units.metres, { n: String(metres < 100 ? Math.round(metres) : Math.round(metres / 10) * 10) });
}

/** Under a minute, else whole minutes. */
export function minutesText(language: Language, seconds: number): string {
  const units = locales[language].units;
  if (seconds < 60) return units.under_a_minute;
  const minutes = Math.round(seconds / 60);
  return minutes === 1 ? units.one_minute : fill(units.minutes, { n: String(minutes) });
}

export function timesText(language: Language, count: number): string {
  const units = locales[language].units;
  return count === 1 ? units.once : count === 2 ? units.twice : fill(units.times, { n: String(count) });
}

/** A signed cycle route as a rider names it: its own name where it has one, else its network's words and reference. */
export function routeText(language: Language, route: string): string {
  const referenced = parseReferencedRouteName(route);
  return referenced ? fill(locales[language].route_networks[referenced.network], { ref: referenced.ref }) : route;
}

/** Differences under half a unit round to nothing in the responses' own figures. */
const MORE = 0.5;

export function costOf(safe: RouteFigures, direct: RouteFigures): Cost {
  const longer = safe.distance - direct.distance >= MORE;
  const slower = safe.duration - direct.duration >= MORE;
  return longer ? (slower ? 'longer_slower' : 'longer_only') : slower ? 'slower_only' : 'no_extra';
}

const litPercent = (figures: RouteFigures) => (figures.ridden > 0 ? Math.round((100 * figures.lit) / figures.ridden) : 0);

/** The signed route the safer route rides most more of, with the metres it rides on it. */
function signedGain(safe: RouteFigures, direct: RouteFigures): { route: string; metres: number; gain: number } | null {
  let best: { route: string; metres: number; gain: number } | null = null;
  for (const [route, metres] of Object.entries(safe.signed)) {
    const gain = metres - (direct.signed[route] ?? 0);
    if (!best || gain > best.gain) best = { route, metres, gain };
  }
  return best;
}

/** The road holding most of the busy and shared riding the safer route leaves out. */
function dominantRoad(safe: RouteFigures, direct: RouteFigures, avoided: number): string | null {
  let best: { road: string; metres: number } | null = null;
  for (const [road, metres] of Object.entries(direct.risky_by_road)) {
    const left = metres - (safe.risky_by_road[road] ?? 0);
    if (!best || left > best.metres) best = { road, metres: left };
  }
  return best && best.metres >= DOMINANT_SHARE * avoided ? best.road : null;
}

export interface Explanation {
  sentence: string;
  template: Template;
  cost: Cost | null;
  /** The values the sentence was filled with, as numbers and names (before formatting). */
  claims: Record<string, number | string>;
}

export interface ExplainOptions {
  same: boolean;
  night: boolean;
  /** The hill preference was asked for, and without it the two routes would be the same. */
  hillsParted?: boolean;
}

export function explain(language: Language, safe: RouteFigures, direct: RouteFigures, options: ExplainOptions): Explanation {
  const locale = locales[language];
  if (options.same) return { sentence: locale.templates.same, template: 'same', cost: null, claims: {} };

  const cost = costOf(safe, direct);
  const extraDistance = safe.distance - direct.distance;
  const extraSeconds = safe.duration - direct.duration;
  const costText = fill(locale.costs[cost], { distance: distanceText(language, extraDistance), minutes: minutesText(language, extraSeconds) });
  const claims: Record<string, number | string> = {};
  if (cost === 'longer_slower' || cost === 'longer_only') claims.extra_distance = extraDistance;
  if (cost === 'longer_slower' || cost === 'slower_only') claims.extra_seconds = extraSeconds;
  const say = (template: Template, values: Record<string, string>): Explanation => ({
    sentence: fill(locale.templates[template], { ...values, cost: costText }),
    template,
    cost,
    claims,
  });

  if (options.hillsParted) {
    Object.assign(claims, { safe_climb: safe.climb, direct_climb: direct.climb });
    return say('climb', { safe_climb: distanceText(language, safe.climb), direct_climb: distanceText(language, direct.climb) });
  }
  const safeLit = litPercent(safe);
  const directLit = litPercent(direct);
  if (options.night && safeLit - directLit >= LIT_MIN_POINTS) {
    Object.assign(claims, { safe_lit_percent: safeLit, direct_lit_percent: directLit });
    return say('lit', { safe_lit: String(safeLit), direct_lit: String(directLit) });
  }
  const avoided = direct.busy_shared - safe.busy_shared;
  if (avoided >= AVOID_MIN_METRES) {
    claims.avoided_busy_shared = avoided;
    const road = dominantRoad(safe, direct, avoided);
    if (road) {
      claims.road = road;
      return say('avoid_road', { avoided: distanceText(language, avoided), road });
    }
    return say('avoid', { avoided: distanceText(language, avoided) });
  }
  const safeUncontrolled = safe.crossings.uncontrolled;
  const directUncontrolled = direct.crossings.uncontrolled;
  if (directUncontrolled > safeUncontrolled) {
    Object.assign(claims, { safe_uncontrolled: safeUncontrolled, direct_uncontrolled: directUncontrolled });
    return safeUncontrolled === 0
      ? say('crossings_none', { direct_uncontrolled: timesText(language, directUncontrolled) })
      : say('crossings', { safe_uncontrolled: timesText(language, safeUncontrolled), direct_uncontrolled: timesText(language, directUncontrolled) });
  }
  const signed = signedGain(safe, direct);
  if (signed && signed.gain >= SIGNED_MIN_METRES) {
    Object.assign(claims, { route: signed.route, signed_metres: signed.metres });
    return say('signed', { route: routeText(language, signed.route), signed: distanceText(language, signed.metres) });
  }
  const moderate = direct.moderate - safe.moderate;
  if (moderate >= AVOID_MIN_METRES) {
    claims.avoided_moderate = moderate;
    return say('avoid_moderate', { avoided: distanceText(language, moderate) });
  }
  return say('other', {});
}
