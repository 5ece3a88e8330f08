import { cityBoundaries, type Ring } from './boundaries.ts';

/**
 * The four cities the platform covers (spec 1.2.1), with the facts that hold wherever the code
 * runs: time zone, lighting data, bike-share systems, outline. How each city's graph is built
 * (which OSM extracts, DEM and named areas) is the builder's business: graph-builder/city-recipes.ts.
 */

export const cityIds = ['london', 'new-york', 'los-angeles', 'sf-bay'] as const;
export type CityId = (typeof cityIds)[number];

export interface BikeShareSystem {
  readonly id: string;
  readonly name: string;
  readonly operator: string;
}

export interface City {
  readonly id: CityId;
  readonly name: string;
  /** IANA zone in which departure times are read and night is computed. */
  readonly timeZone: string;
  /** Spec 1.2.2: night routing applies only where street-lighting data exists. */
  readonly lightingData: boolean;
  /** ISO country and region, for public holidays in OSM opening hours (`PH off`). */
  readonly countryCode: 'gb' | 'us';
  readonly region: string;
  /** A representative point (for sunrise/sunset in opening hours). */
  readonly center: readonly [number, number];
  readonly boundary: Ring;
  readonly bikeShare: readonly BikeShareSystem[];
}

export const cities: Readonly<Record<CityId, City>> = {
  london: {
    id: 'london',
    name: 'London',
    timeZone: 'Europe/London',
    lightingData: true,
    countryCode: 'gb',
    region: 'England',
    center: [-0.1276, 51.5072],
    boundary: cityBoundaries.london,
    bikeShare: [
      { id: 'santander-cycles', name: 'Santander Cycles', operator: 'Transport for London' },
    ],
  },
  'new-york': {
    id: 'new-york',
    name: 'New York City',
    timeZone: 'America/New_York',
    lightingData: true,
    countryCode: 'us',
    region: 'New York',
    center: [-73.9857, 40.7484],
    boundary: cityBoundaries['new-york'],
    bikeShare: [{ id: 'citi-bike', name: 'Citi Bike', operator: 'Lyft' }],
  },
  'los-angeles': {
    id: 'los-angeles',
    name: 'Los Angeles',
    timeZone: 'America/Los_Angeles',
    lightingData: false,
    countryCode: 'us',
    region: 'California',
    center: [-118.2437, 34.0522],
    boundary: cityBoundaries['los-angeles'],
    bikeShare: [
      { id: 'metro-bike-share', name: 'Metro Bike Share', operator: 'LA Metro' },
    ],
  },
  'sf-bay': {
    id: 'sf-bay',
    name: 'San Francisco Bay Area',
    timeZone: 'America/Los_Angeles',
    lightingData: false,
    countryCode: 'us',
    region: 'California',
    center: [-122.4194, 37.7749],
    boundary: cityBoundaries['sf-bay'],
    bikeShare: [{ id: 'bay-wheels', name: 'Bay Wheels', operator: 'Lyft' }],
  },
};

export const allCities: readonly City[] = cityIds.map((id) => cities[id]);

export function isCityId(value: string): value is CityId {
  return (cityIds as readonly string[]).includes(value);
}
