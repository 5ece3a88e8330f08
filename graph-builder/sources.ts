import { cityIds, isCityId, type CityId } from '../core/cities/cities.ts';
import { graphRecipes } from './city-recipes.ts';

/**
 * Which OSM extracts the nightly job downloads for each city. The stack writes them into the
 * job's GRAPH_SOURCE_URLS (from the `graphSourceUrls` context, else each recipe's
 * `nightlySources`) and the job reads them back: both through this one parser, so a value the
 * synth accepts is one the job runs with, and a typo fails the synth rather than the night's build.
 */

/** City id → URLs of the OpenStreetMap extracts merged into its graph. */
export type GraphSourceUrls = Readonly<Partial<Record<CityId, readonly string[]>>>;

/** Each recipe's full-city extracts (BBBike, refreshed weekly from OpenStreetMap, ODbL). */
export const DEFAULT_GRAPH_SOURCE_URLS: GraphSourceUrls = Object.fromEntries(
  cityIds.map((id) => [id, [...graphRecipes[id].nightlySources]]),
);

/** https anywhere; plain http only on the loopback interface, where tests serve extracts. */
function isAllowedUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
  } catch {
    return false;
  }
}

/**
 * Parses an object, or its JSON text, of city id → one URL or a list of URLs. `undefined` means
 * the defaults. Throws with the rule that was broken.
 */
export function parseGraphSourceUrls(value: unknown, origin = 'GRAPH_SOURCE_URLS'): GraphSourceUrls {
  if (value === undefined || value === '') return DEFAULT_GRAPH_SOURCE_URLS;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new Error(`${origin} is not JSON: an object of city id → https URL(s) was expected`);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || Object.keys(parsed).length === 0) {
    throw new Error(`${origin} must be an object of city id → https URL(s)`);
  }
  const sources: Partial<Record<CityId, readonly string[]>> = {};
  for (const [city, urls] of Object.entries(parsed)) {
    if (!isCityId(city)) throw new Error(`${origin} names unknown city "${city}"; cities are ${cityIds.join(', ')}`);
    const list: unknown[] = Array.isArray(urls) ? urls : [urls];
    if (list.length === 0 || !list.every(isAllowedUrl)) {
      throw new Error(`${origin}: "${city}" needs one or more https URLs (http only on the loopback interface)`);
    }
    sources[city] = list as string[];
  }
  return sources;
}
