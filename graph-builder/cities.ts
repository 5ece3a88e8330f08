import { cities, cityIds, type City, type CityId } from '../core/cities/cities.ts';

/**
 * How each city's graph is built: which OSM extracts, which DEM, which named areas, and the
 * full-city extracts the nightly job downloads. Paths are relative to the shared data folder
 * (`sharedDataPath()`); nothing here reads files.
 */

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
  /** Full-city extracts the nightly job downloads (overridable per deployment, see graph-builder/sources.ts). */
  readonly nightlySources: readonly string[];
  /** Permanent accepted road reports folded into the graph (core/avoidances.ts `foldedTags`): set by the nightly job. */
  readonly folded?: FoldedReports;
}

export interface FoldedReports {
  /** The reports folded in, recorded in the graph's header so routers no longer apply them. */
  readonly reports: readonly string[];
  /** Tags laid over each way (by OSM way id) before the tag rules read it. */
  readonly wayTags: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** A city with its recipe: what every builder stage is given. */
export interface BuildableCity extends City {
  readonly graph: CityGraphRecipe;
}

const bbbike = (name: string): string => `https://download.bbbike.org/osm/bbbike/${name}/${name}.osm.pbf`;

export const graphRecipes: Readonly<Record<CityId, CityGraphRecipe>> = {
  london: {
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
  'new-york': {
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
  'los-angeles': {
    extracts: ['osm/la/satalites-raytracing/ucla.osm', 'osm/la/flow-project-flow/map.osm'],
    nightlySources: [bbbike('LosAngeles')],
  },
  'sf-bay': {
    extracts: ['osm/sf-bay/gboeing-osmnx/West-Oakland.osm.bz2', 'osm/sf-bay/flow-project-flow/euclid.osm'],
    dem: 'elevation/sf-usgs-7.5min-dem/sf_usgs24k_dem_merged_wgs84_metres.tif',
    nightlySources: [bbbike('SanFrancisco')],
  },
};

export const buildableCity = (id: CityId): BuildableCity => ({ ...cities[id], graph: graphRecipes[id] });
export const buildableCities: readonly BuildableCity[] = cityIds.map(buildableCity);
