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

export interface ElevationModelSource {
  /** An SRTM `.hgt` tile or a GeoTIFF in EPSG:4326 metres (graph-builder/stages/elevation/models.ts). */
  readonly file: string;
  /** A surface model (SRTM, Copernicus) sees roofs and trees: the build smooths it into ground heights. */
  readonly surface: boolean;
}

export interface CityGraphRecipe {
  /**
   * OSM extracts merged by OSM id into the city's graph. Where two hold the same way or node, the
   * newer version wins; where either copy has no version (metadata stripped), the earlier extract
   * wins, so the newest data comes first.
   */
  readonly extracts: readonly string[];
  /**
   * Elevation models, best first. Each point takes its height from the first that covers it;
   * nodes none covers fall back to OSM `ele`, then to their neighbours' heights.
   */
  readonly elevation?: readonly ElevationModelSource[];
  /** Named polygons embedded in the graph for later rules (London borough parking rules). */
  readonly areas?: NamedAreaSource;
  /** Full-city extracts the nightly job downloads (overridable per deployment, see graph-builder/sources.ts). */
  readonly nightlySources: readonly string[];
  /** Permanent accepted road reports folded into the graph (core/report-avoidances.ts `foldedTags`): set by the nightly job. */
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
      // The City of London and Holborn (2020), east of Bloomsbury: Valhalla's routing benchmark extract.
      'osm/london/valhalla/london.osm.pbf',
    ],
    // Copernicus GLO-90 (void-free, London west of Greenwich) before SRTM (voids, both tiles).
    elevation: [
      { file: 'elevation/london-copernicus-glo90/Copernicus_DSM_30_N51_00_W001_00_DEM.tif', surface: true },
      { file: 'elevation/london-srtm3/N51W001.hgt', surface: true },
      { file: 'elevation/london-srtm3/N51E000.hgt', surface: true },
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
    // East of 74° W only: western Lower Manhattan and Jersey City lie in N40W075, which is not here.
    elevation: [{ file: 'elevation/nyc-srtm3/N40W074.hgt', surface: true }],
    nightlySources: [bbbike('NewYork')],
  },
  'los-angeles': {
    extracts: ['osm/la/satalites-raytracing/ucla.osm', 'osm/la/flow-project-flow/map.osm'],
    nightlySources: [bbbike('LosAngeles')],
  },
  'sf-bay': {
    // Northern San Francisco (about 2019, car roads only) and the Mission, SoMa, Potrero Hill and
    // Bernal Heights (2014), which meet near Market Street and Duboce; West Oakland and Berkeley.
    extracts: [
      'osm/sf-bay/KrainskiL-SmartTransitionSim.jl/SanFranciscoFiltered.osm',
      'osm/sf-bay/seanjtaylor-out-for-justice/sf.osm',
      'osm/sf-bay/gboeing-osmnx/West-Oakland.osm.bz2',
      'osm/sf-bay/flow-project-flow/euclid.osm',
    ],
    // The USGS 7.5-minute DEMs of San Francisco North and South, merged (30 m, bare earth). No
    // model reaches Oakland or Berkeley.
    elevation: [{ file: 'elevation/sf-usgs-7.5min-dem/sf_usgs24k_dem_merged_wgs84_metres.tif', surface: false }],
    nightlySources: [bbbike('SanFrancisco')],
  },
};

export const buildableCity = (id: CityId): BuildableCity => ({ ...cities[id], graph: graphRecipes[id] });
export const buildableCities: readonly BuildableCity[] = cityIds.map(buildableCity);
