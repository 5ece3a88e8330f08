import type { CityId } from '../../../core/cities/index.ts';
import type { Graph } from '../../../core/graph/layout.ts';
import { haversineMetres, type LonLat, type Position } from '../../../core/geo.ts';
import type { ParkingType } from '../request.ts';
import { areaAt } from './areas.ts';
import { boroughRule, covers, ruleOf, type BoroughRule, type EbikeParkingRule, type LondonEbikeOperator } from './london-ebike-rules.ts';
import type { FoundSpot, SpotIndex, SpotKind } from './spots.ts';

/**
 * Where the Personal option leaves the bike (spec 4.2 rule 7) and the destination's rental e-bike
 * parking rule (`destination_parking`):
 *
 * - `regular`: the nearest cycle stand (London) or city rack (New York City, San Francisco)
 *   within 1,500 m of the destination.
 * - `ebike`: only where the destination's borough makes bays mandatory, the nearest designated
 *   bay within 1,500 m (one the operator serves, when an operator is named). When the named
 *   operator does not serve the destination's borough, the nearest bay inside a borough it does
 *   serve, within OPERATOR_AREA_RADIUS_METRES, whatever the destination's rule (`covered: false`).
 *
 * Nothing found, or an `ebike` request where bays are not mandatory: the option stays direct.
 */

/** Spec 8: the search radius for spots, as for bikes and stations. */
export const PARKING_RADIUS_METRES = 1_500;
/**
 * How far the bay inside the operator's area may be when the operator does not serve the
 * destination's borough: farther than the usual radius, since it must lie over a borough line.
 */
export const OPERATOR_AREA_RADIUS_METRES = 5_000;

export const BOROUGH_AREA_KIND = 'london_borough';

/** Which kind of spot answers `regular` in each city; none in Los Angeles (no rack data). */
export const REGULAR_SPOTS: Readonly<Partial<Record<CityId, SpotKind>>> = { london: 'cycle_stand', 'new-york': 'city_rack', 'sf-bay': 'city_rack' };

export interface DestinationParking {
  area_name: string;
  /** ONS code of the borough. */
  gss_code: string;
  ebike_parking_rule: EbikeParkingRule;
  operator?: LondonEbikeOperator;
  covered?: boolean;
}

export interface ParkingBody {
  kind: SpotKind;
  id: string;
  name: string | null;
  location: Position;
  capacity: number | null;
  /** Metres in a straight line from the spot to the destination. */
  distance_to_destination: number;
  /** E-bike bays: the operators whose bikes may end there, when the source says. */
  operators: LondonEbikeOperator[] | null;
  source: { name: string; attribution: string };
}

/** The borough the destination lies in, with its row of the rules table; null outside London's boroughs. */
export function destinationBorough(graph: Graph, destination: LonLat): BoroughRule | null {
  const area = areaAt(graph, destination, BOROUGH_AREA_KIND);
  return area ? (boroughRule(area.name) ?? null) : null;
}

export function destinationParkingOf(row: BoroughRule | null, operator: LondonEbikeOperator | null): DestinationParking | null {
  if (!row) return null;
  return {
    area_name: row.borough,
    gss_code: row.gss,
    ebike_parking_rule: ruleOf(row),
    ...(operator ? { operator, covered: covers(row, operator) } : {}),
  };
}

export interface ParkingQuery {
  city: CityId;
  graph: Graph;
  destination: LonLat;
  parkingType: ParkingType;
  operator: LondonEbikeOperator | null;
  borough: BoroughRule | null;
  spots: (city: CityId, kind: SpotKind) => Promise<SpotIndex | null>;
}

const servesBay = (operators: LondonEbikeOperator[] | null, operator: LondonEbikeOperator | null): boolean =>
  operator === null || operators === null || operators.includes(operator);

/** The spot the Personal option cycles to, or null when it stays direct. */
export async function chooseParking(query: ParkingQuery): Promise<FoundSpot | null> {
  const { city, destination, operator, borough } = query;
  if (query.parkingType === 'regular') {
    const kind = REGULAR_SPOTS[city];
    const index = kind ? await query.spots(city, kind) : null;
    return index?.near(destination, PARKING_RADIUS_METRES, { limit: 1 })[0] ?? null;
  }
  // Designated rental e-bike bays exist only under a borough's rules.
  if (!borough) return null;
  const bays = await query.spots(city, 'ebike_bay');
  if (!bays) return null;
  if (operator && !covers(borough, operator)) {
    return (
      bays.near(destination, OPERATOR_AREA_RADIUS_METRES, {
        limit: 1,
        where: (bay) => {
          if (!servesBay(bay.operators, operator)) return false;
          const row = destinationBorough(query.graph, [bay.lon, bay.lat]);
          return row !== null && covers(row, operator);
        },
      })[0] ?? null
    );
  }
  if (ruleOf(borough) !== 'bay_mandatory') return null;
  return bays.near(destination, PARKING_RADIUS_METRES, { limit: 1, where: (bay) => servesBay(bay.operators, operator) })[0] ?? null;
}

export function parkingBody(found: FoundSpot, destination: LonLat): ParkingBody {
  const { spot, source } = found;
  return {
    kind: spot.kind,
    id: spot.id,
    name: spot.name,
    location: [spot.lon, spot.lat],
    capacity: spot.capacity,
    distance_to_destination: Math.round(haversineMetres(spot.lon, spot.lat, destination[0], destination[1])),
    operators: spot.operators,
    source: { name: source.name, attribution: source.attribution },
  };
}
