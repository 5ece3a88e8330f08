import type { Tags } from '../osm/types.ts';

/**
 * Widths: whether a way or a barrier is too narrow for a cargo bike (the `cargo` bicycle type,
 * core/routing/costing/bicycle-types.ts). A two-wheeled cargo bike or a bike with a trailer is
 * about 0.8 to 0.9 m wide; under 1 m of clear width it does not get through.
 */

/** Clear width under which a cargo bike does not pass, metres. */
export const CARGO_BIKE_CLEAR_WIDTH_METRES = 1.0;

const METRES_PER_FOOT = 0.3048;
const METRES_PER_INCH = 0.0254;

/**
 * A width value in metres: `0.8`, `0.8 m`, `80 cm`, `2'6"`, `3 ft`; null for anything else
 * (`default`, `none`, a value the rule cannot read), which the rules then ignore.
 */
export function widthMetresRule(value: string | undefined): number | null {
  if (value === undefined) return null;
  const text = value.trim().replace(',', '.');
  const metric = /^(\d+(?:\.\d+)?)\s*(m|cm)?$/.exec(text);
  if (metric) return Number(metric[1]) * (metric[2] === 'cm' ? 0.01 : 1);
  const imperial = /^(?:(\d+(?:\.\d+)?)\s*(?:'|ft))?\s*(?:(\d+(?:\.\d+)?)\s*(?:"|in))?$/.exec(text);
  if (imperial && (imperial[1] !== undefined || imperial[2] !== undefined)) {
    return Number(imperial[1] ?? 0) * METRES_PER_FOOT + Number(imperial[2] ?? 0) * METRES_PER_INCH;
  }
  return null;
}

/** `maxwidth` or `maxwidth:physical` says the way or barrier is narrower than a cargo bike needs. */
export function tooNarrowForCargoRule(tags: Tags): boolean {
  for (const key of ['maxwidth', 'maxwidth:physical']) {
    const width = widthMetresRule(tags[key]);
    if (width !== null && width < CARGO_BIKE_CLEAR_WIDTH_METRES) return true;
  }
  return false;
}
