import { z } from 'zod';

/**
 * Query-string parameters for the "near a point" endpoints (spec 4.7, 4.8): decimal numbers,
 * names with aliases (`latitude`/`lat`, `longitude`/`lon`/`lng`), ranges. Every problem becomes
 * a zod issue on the parameter's canonical name, so the 400 names it (validation.ts).
 */

export type RawQuery = Record<string, string | undefined>;

/**
 * A query parameter as sent (a string), read by the endpoint's own transform (numberParam); the
 * OpenAPI documents show what it must hold.
 */
export const queryParameter = (description: string, shape: Record<string, unknown> = { type: 'string' }) =>
  z.string().optional().meta({ description, override: shape });

const decimal = (min: number, max: number) => ({ type: 'number', minimum: min, maximum: max });

/** The point of a "near a point" query, under its names and aliases (`radiusParameter` goes with it). */
export const pointQueryParameters = {
  latitude: queryParameter('Degrees, -90 to 90. Required (also accepted as `lat`).', decimal(-90, 90)),
  lat: queryParameter('Alias of `latitude`.', decimal(-90, 90)),
  longitude: queryParameter('Degrees, -180 to 180. Required (also accepted as `lon` or `lng`).', decimal(-180, 180)),
  lon: queryParameter('Alias of `longitude`.', decimal(-180, 180)),
  lng: queryParameter('Alias of `longitude`.', decimal(-180, 180)),
};

export const radiusParameter = (defaultMetres: number) =>
  queryParameter(`Metres, greater than 0 and at most ${MAX_RADIUS_METRES} (default ${defaultMetres}).`, { type: 'number', exclusiveMinimum: 0, maximum: MAX_RADIUS_METRES });

const DECIMAL = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

export interface NumberRule {
  min: number;
  max: number;
  /** The minimum itself is not allowed (a radius of 0). */
  exclusiveMin?: boolean;
  integer?: boolean;
  /** How the rule reads in the 400, e.g. "must be a number between -90 and 90". */
  message: string;
}

/**
 * A number given under `names[0]` or one of its aliases: undefined when none is given; an issue
 * when it is not a decimal number, breaks the rule, or two names give different values.
 */
export function numberParam(query: RawQuery, context: z.RefinementCtx, names: readonly [string, ...string[]], rule: NumberRule): number | undefined {
  const [name] = names;
  const given = names.filter((alias) => query[alias] !== undefined);
  if (given.length === 0) return undefined;
  const values: number[] = [];
  for (const alias of given) {
    const raw = query[alias]!;
    const value = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
    const broken =
      !Number.isFinite(value) ||
      value < rule.min ||
      value > rule.max ||
      (rule.exclusiveMin && value === rule.min) ||
      (rule.integer && !Number.isInteger(value));
    if (broken) {
      context.addIssue({ code: 'custom', path: [name], message: alias === name ? rule.message : `${rule.message} (given as ${alias})` });
      return undefined;
    }
    values.push(value);
  }
  if (values.some((value) => value !== values[0])) {
    context.addIssue({ code: 'custom', path: [name], message: `is given as ${given.join(' and ')} with different values` });
    return undefined;
  }
  return values[0];
}

export const LATITUDE_NAMES = ['latitude', 'lat'] as const;
export const LONGITUDE_NAMES = ['longitude', 'lon', 'lng'] as const;
/** Far enough for any search around a city; beyond it a search is a mistake, not a question. */
export const MAX_RADIUS_METRES = 50_000;

export interface PointAndRadius {
  latitude: number;
  longitude: number;
  radius: number;
}

/** `latitude` and `longitude` (required, with their aliases) and `radius` in metres. */
export function pointAndRadius(query: RawQuery, context: z.RefinementCtx, defaultRadius: number): PointAndRadius | null {
  const latitude = numberParam(query, context, LATITUDE_NAMES, { min: -90, max: 90, message: 'must be a number between -90 and 90' });
  const longitude = numberParam(query, context, LONGITUDE_NAMES, { min: -180, max: 180, message: 'must be a number between -180 and 180' });
  const radius = numberParam(query, context, ['radius'], {
    min: 0,
    exclusiveMin: true,
    max: MAX_RADIUS_METRES,
    message: `must be a number of metres greater than 0 and at most ${MAX_RADIUS_METRES}`,
  });
  const missing = (names: readonly string[], value: number | undefined) => {
    if (value === undefined && names.every((alias) => query[alias] === undefined)) {
      context.addIssue({ code: 'custom', path: [names[0]!], message: `is required (also accepted as ${names.slice(1).join(' or ')})` });
    }
  };
  missing(LATITUDE_NAMES, latitude);
  missing(LONGITUDE_NAMES, longitude);
  if (latitude === undefined || longitude === undefined) return null;
  return { latitude, longitude, radius: radius ?? defaultRadius };
}
