import { cityBoundaries, type Ring } from './boundaries.ts';

/**
 * The four cities the platform covers (spec 1.2.1). Everything city-specific lives here: the
 * runtime facts the Lambdas need (zone, lighting data, bike-share systems, outline) and the
 * build recipe the graph builder follows (which OSM extracts, which DEM, which named areas).
 * Paths in `graph` are relative to the shared data folder (`sharedDataPath()`); nothing here
 * reads files.
 */

export const cityIds = ['london', 'new-york', 'los-angeles', 'sf-bay'] as const;
export type CityId = (typeof cityIds)[number];

export interface BikeShareSystem {
  readonly id: string;
  readonly name: string;
  readonly operator: string;
  /** Feed family of the live data and of the snapshot in `shared/data/gbfs/<snapshot>`. */
  readonly feed: 'gbfs' | 'tfl-bikepoint' | 'metro-stations-csv';
  readonly snapshot: string;
}

export interface NamedAreaSource {
  /** What the areas are, e.g. `london_borough`; stored with each area name as `<kind>:<name>`. */
  readonly kind: string;
  /** GeoJSON FeatureCollection of (Multi)Polygons. */
  readonly file: string;
  readonly nameProperty: string;
}

export interface CityGraphRecipe {
  /**
   * OSM extracts merged by OSM id into the city's graph. Order matters: when two extracts hold
   * different versions of the same way, the earlier one wins, so the newest data comes first.
   */
  readonly extracts: readonly string[];
  /** A GeoTIFF DEM in EPSG:4326 metres; nodes outside it fall back to OSM `ele`, then flat. */
  readonly dem?: string;
  /** Named polygons embedded in the graph for later rules (London borough parking rules). */
  readonly areas?: NamedAreaSource;
  /** Full-city extracts the nightly job downloads (overridable per deployment, see nightly-handler). */
  readonly nightlySources: readonly string[];
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
  readonly graph: CityGraphRecipe;
}

const bbbike = (name: string): string => `https://download.bbbike.org/osm/bbbike/${name}/${name}.osm.pbf`;

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
      { id: 'santander-cycles', name: 'Santander Cycles', operator: 'Transport for London', feed: 'tfl-bikepoint', snapshot: 'santander-cycles-london' },
    ],
    graph: {
      extracts: [
        'osm/london/stanislavorlov-geo-maps/london_large.osm',
        'osm/london/a-b-street-osm2streets/st_georges_cycletrack/input.osm',
        'osm/london/a-b-street-osm2streets/borough_sausage_links/input.osm',
        'osm/london/a-b-street-osm2streets/cycleway_rejoin_road/input.osm',
        'osm/london/a-b-street-osm2streets/oneway_loop/input.osm',
        'osm/london/adnathanail-broute/central-london-latest.osm.pbf',
      ],
      areas: {
        kind: 'london_borough',
        file: 'boundaries/london/london_boroughs_2013_ons_generalised.geojson',
        nameProperty: 'LAD13NM',
      },
      nightlySources: [bbbike('London')],
    },
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
    bikeShare: [{ id: 'citi-bike', name: 'Citi Bike', operator: 'Lyft', feed: 'gbfs', snapshot: 'citi-bike' }],
    graph: {
      // valhalla/nyc.osm.pbf (2015) is a few long avenue ways that bridge the 14th Street gap
      // between the two big extracts. valhalla/ny-access-restriction.osm.pbf is left out: it lies
      // inside the Lower Manhattan extract and only adds 2020 ways since re-mapped, which form a
      // ghost network over the Lower East Side.
      extracts: [
        'osm/nyc/donnawang47-Thesis/manhattan.osm.pbf',
        'osm/nyc/davidsaldubehere-osm-navigation-backend/nyc.osm.pbf',
        'osm/nyc/valhalla/nyc.osm.pbf',
      ],
      nightlySources: [bbbike('NewYork')],
    },
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
      { id: 'metro-bike-share', name: 'Metro Bike Share', operator: 'LA Metro', feed: 'metro-stations-csv', snapshot: 'metro-bike-share-la' },
    ],
    graph: {
      extracts: ['osm/la/satalites-raytracing/ucla.osm', 'osm/la/flow-project-flow/map.osm'],
      nightlySources: [bbbike('LosAngeles')],
    },
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
    bikeShare: [{ id: 'bay-wheels', name: 'Bay Wheels', operator: 'Lyft', feed: 'gbfs', snapshot: 'bay-wheels' }],
    graph: {
      extracts: ['osm/sf-bay/gboeing-osmnx/West-Oakland.osm.bz2', 'osm/sf-bay/flow-project-flow/euclid.osm'],
      dem: 'elevation/sf-usgs-7.5min-dem/sf_usgs24k_dem_merged_wgs84_metres.tif',
      nightlySources: [bbbike('SanFrancisco')],
    },
  },
};

export const allCities: readonly City[] = cityIds.map((id) => cities[id]);

export function isCityId(value: string): value is CityId {
  return (cityIds as readonly string[]).includes(value);
}
