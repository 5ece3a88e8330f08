import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { areaAt } from '../../functions/multimodal/parking/areas.ts';
import { chooseParking, destinationBorough, destinationParkingOf, OPERATOR_AREA_RADIUS_METRES } from '../../functions/multimodal/parking/choose.ts';
import { compileParkingDatasets, parseCsv } from '../../functions/multimodal/parking/datasets.ts';
import { LONDON_BOROUGH_RULES, RULE_FOR_REPORTED, type LondonEbikeOperator } from '../../functions/multimodal/parking/london-ebike-rules.ts';
import { decodeDataset, encodeDataset, SpotIndex, type SpotDataset, type SpotKind } from '../../functions/multimodal/parking/spots.ts';
import { realGraph, seededRandom } from '../routing/real-graphs.ts';
import { handMadeBays, PLACES } from '../support/parking.ts';

/**
 * Parking for the Personal option (spec 4.2 rule 7) and `destination_parking`: the borough rules
 * table against the compiled source it was built from, the borough polygons in the London graph,
 * the datasets compiled from the shared data, and the choice of spot.
 */

const other = (file: string) => readFileSync(join(sharedDataPath(), 'other', file), 'utf8');
const graph = realGraph('london').network.graph;

describe('London borough rules for rental e-bikes', () => {
  const [header, ...rows] = parseCsv(other('london/london_rental_ebike_borough_parking_rules.csv'));
  const source = rows.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));

  it('has one row per borough of the compiled table, with its rule as compiled', () => {
    expect(LONDON_BOROUGH_RULES).toHaveLength(33);
    for (const row of LONDON_BOROUGH_RULES) {
      const compiled = source.find((candidate) => candidate.gss_code === row.gss)!;
      expect(compiled.borough).toBe(row.borough);
      expect(compiled.parking_rule).toBe(row.reported);
    }
  });

  it('says an operator covers a borough exactly where the compiled table names it, and cites its sources', () => {
    for (const row of LONDON_BOROUGH_RULES) {
      const compiled = source.find((candidate) => candidate.gss_code === row.gss)!;
      const named: LondonEbikeOperator[] = [];
      if (/\bLime\b/.test(compiled.ebike_operators_reported!)) named.push('lime');
      if (/\bForest\b/.test(compiled.ebike_operators_reported!)) named.push('forest');
      expect([...row.operators].sort(), row.borough).toEqual(named.sort());
      for (const url of row.sources) expect(compiled.sources, row.borough).toContain(url.split(' ')[0]);
      if (row.reported !== 'unknown') expect(row.sources.length, row.borough).toBeGreaterThan(0);
    }
  });

  it('maps the four compiled rules onto the spec\'s two', () => {
    expect(RULE_FOR_REPORTED).toEqual({
      bay_mandatory: 'bay_mandatory',
      bay_mandatory_partial: 'bay_mandatory',
      bays_no_mandate_confirmed: 'free_floating',
      unknown: 'free_floating',
    });
  });

  it('finds each destination\'s borough in the London graph as the borough polygons do', () => {
    const boroughs = JSON.parse(readFileSync(join(sharedDataPath(), 'boundaries/london/london_boroughs_2013_ons_generalised.geojson'), 'utf8')) as {
      features: { geometry: { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] }; properties: { LAD13NM: string } }[];
    };
    const random = seededRandom(11);
    for (let i = 0; i < 300; i++) {
      const point: LonLat = [-0.45 + random() * 0.7, 51.32 + random() * 0.34];
      const expected = boroughs.features.find((feature) => booleanPointInPolygon([point[0], point[1]], feature.geometry))?.properties.LAD13NM ?? null;
      expect(areaAt(graph, point, 'london_borough')?.name ?? null, JSON.stringify(point)).toBe(expected);
    }
    expect(destinationParkingOf(destinationBorough(graph, [-0.1263, 51.522]), 'forest')).toEqual({
      area_name: 'Camden',
      gss_code: 'E09000007',
      ebike_parking_rule: 'bay_mandatory',
      operator: 'forest',
      covered: true,
    });
    expect(destinationParkingOf(destinationBorough(graph, PLACES.southwark), 'forest')).toMatchObject({ area_name: 'Southwark', ebike_parking_rule: 'free_floating', covered: false });
    expect(destinationParkingOf(destinationBorough(graph, PLACES.barnet), null)).toEqual({ area_name: 'Barnet', gss_code: 'E09000003', ebike_parking_rule: 'free_floating' });
    expect(destinationBorough(realGraph('new-york').network.graph, [-74.006, 40.7128])).toBeNull();
  });
});

describe('parking datasets from the shared data', () => {
  it('keeps every public place to leave a bike, and leaves out lockers, hangars, garages and empty racks', async () => {
    const datasets = await compileParkingDatasets(sharedDataPath(), ['london', 'new-york', 'sf-bay', 'los-angeles']);
    const of = (city: string) => datasets.find((dataset) => dataset.city === city)!;
    const tfl = (JSON.parse(other('london/tfl_cid_cycle_parking.geojson')) as { features: { properties: Record<string, unknown> }[] }).features;
    expect(of('london').spots).toHaveLength(tfl.filter(({ properties: p }) => Number(p.PRK_CPT) > 0 && !p.PRK_LOCKER && !p.PRK_HANGAR).length);
    expect(of('london').spots.length).toBeGreaterThan(20_000);
    expect(of('new-york').spots).toHaveLength(35_210);
    const sf = parseCsv(other('sf-bay/sfmta_bicycle_parking_2021.csv'));
    const column = (name: string) => sf[0]!.indexOf(name);
    const publicRacks = sf.slice(1).filter((row) => ['SIDEWALK', 'ROADWAY', 'PARKLET'].includes(row[column('PLACEMENT')]!) && Number(row[column('SPACES')]) > 0 && row[column('shape')]!.startsWith('POINT'));
    expect(of('sf-bay').spots).toHaveLength(publicRacks.length);
    expect(datasets.find((dataset) => dataset.city === 'los-angeles')).toBeUndefined();
    // Stored compactly and read back whole.
    expect(decodeDataset(encodeDataset(of('sf-bay')))).toEqual(of('sf-bay'));
  });

  it('finds the nearest spot as a plain scan does', async () => {
    const [london] = await compileParkingDatasets(sharedDataPath(), ['london']);
    const index = new SpotIndex(london!);
    const random = seededRandom(5);
    for (let i = 0; i < 50; i++) {
      const point: LonLat = [-0.16 + random() * 0.08, 51.50 + random() * 0.04];
      const scan = london!.spots
        .map((spot) => ({ spot, distance: haversineMetres(point[0], point[1], spot.lon, spot.lat) }))
        .filter((found) => found.distance <= 1_500)
        .sort((a, b) => a.distance - b.distance)[0];
      expect(index.near(point, 1_500, { limit: 1 })[0]?.spot.id).toBe(scan?.spot.id);
    }
  });
});

describe('choosing where the Personal option parks', () => {
  const { camden, southwark, barnet } = PLACES;
  const bays = handMadeBays();
  let indexes: Promise<SpotIndex[]> | undefined;
  const spots = async (city: string, kind: SpotKind): Promise<SpotIndex | null> => {
    indexes ??= compileParkingDatasets(sharedDataPath(), ['london']).then((datasets: SpotDataset[]) => [bays, ...datasets].map((dataset) => new SpotIndex(dataset)));
    return (await indexes).find((index) => index.dataset.city === city && index.dataset.kind === kind) ?? null;
  };
  const choose = (destination: LonLat, parkingType: 'ebike' | 'regular', operator: LondonEbikeOperator | null) =>
    chooseParking({ city: 'london', graph, destination, parkingType, operator, borough: destinationBorough(graph, destination), spots });

  it('puts the hand-made bays in the boroughs the tests mean', () => {
    const boroughOf = (id: string) => {
      const bay = bays.spots.find((spot) => spot.id === id)!;
      return areaAt(graph, [bay.lon, bay.lat], 'london_borough')?.name;
    };
    expect(['camden-1', 'camden-lime', 'southwark-1', 'lambeth-1', 'haringey-1'].map(boroughOf)).toEqual(['Camden', 'Camden', 'Southwark', 'Lambeth', 'Haringey']);
  });

  it('regular: the nearest cycle stand within 1,500 m', async () => {
    const found = await choose(camden, 'regular', null);
    expect(found!.spot.kind).toBe('cycle_stand');
    expect(found!.distance).toBeLessThan(200);
  });

  it('ebike: the nearest bay where the borough mandates bays, one the operator serves when named', async () => {
    expect((await choose(camden, 'ebike', null))!.spot.id).toBe('camden-1');
    expect((await choose([-0.1276, 51.5212], 'ebike', 'forest'))!.spot.id).toBe('camden-1');
    expect((await choose([-0.1276, 51.5212], 'ebike', 'lime'))!.spot.id).toBe('camden-lime');
  });

  it('ebike: direct where the borough does not mandate bays', async () => {
    expect(await choose(southwark, 'ebike', null)).toBeNull();
    expect(await choose(southwark, 'ebike', 'lime')).toBeNull();
  });

  it('ebike with an operator that does not serve the borough: the nearest bay inside its area', async () => {
    // Forest does not serve Southwark: its nearest bay in a borough it serves is Lambeth's.
    const forest = await choose(southwark, 'ebike', 'forest');
    expect(forest!.spot.id).toBe('lambeth-1');
    // Lime serves no borough of record in Barnet; Haringey, next door, it does.
    const lime = await choose(barnet, 'ebike', 'lime');
    expect(lime!.spot.id).toBe('haringey-1');
    expect(lime!.distance).toBeLessThan(OPERATOR_AREA_RADIUS_METRES);
    // Nobody records Forest in Barnet and no bay within reach is in a borough it serves.
    expect(await choose(barnet, 'ebike', 'forest')).toBeNull();
  });
});
