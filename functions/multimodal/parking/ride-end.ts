import { LocalProjection, type LonLat } from '../../../core/geo.ts';
import { mayPark, type ZoneRules } from '../geofencing.ts';

/**
 * Where a rented dockless ride may end (spec 1.2.11): at the trip's destination when the
 * operator allows parking there, else just beyond the edge of the zone that forbids it, from
 * where the rider walks. The other parking decision, where a rider's own bike is left, is
 * choose.ts.
 */

/** How many places to end a ride are tried before the option is given up. */
export const RIDE_END_ATTEMPTS = 6;

/** Offsets, in metres beyond a zone's edge, tried for a place to end a ride. */
const EDGE_OFFSETS_METRES = [3, 15, 40];

/**
 * Places where a ride toward `destination` may end, nearest first: the destination itself when
 * parking is allowed there, then points just either side of the nearest stretches of every zone
 * edge within `maxMetres` (the edge of the no-parking zone around the destination, or the edge of
 * the nearest zone that allows parking where the outside does not). The caller snaps each to the
 * network and keeps the first whose snapped place still allows parking.
 */
export function parkingCandidates(rules: ZoneRules, destination: LonLat, maxMetres: number): LonLat[] {
  const atDestination = mayPark(rules.at(destination)) ? [destination] : [];
  if (!rules.restricts) return atDestination;
  const projection = new LocalProjection(destination[1]);
  const px = projection.x(destination[0]);
  const py = projection.y(destination[1]);
  const nearest: { distance: number; x: number; y: number }[] = [];
  for (const { ring } of rules.boundaries()) {
    let best: { distance: number; x: number; y: number } | null = null;
    for (let i = 1; i < ring.length; i++) {
      const ax = projection.x(ring[i - 1]![0]!);
      const ay = projection.y(ring[i - 1]![1]!);
      const bx = projection.x(ring[i]![0]!);
      const by = projection.y(ring[i]![1]!);
      const dx = bx - ax;
      const dy = by - ay;
      const length = dx * dx + dy * dy;
      const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length));
      const x = ax + t * dx;
      const y = ay + t * dy;
      const distance = Math.hypot(px - x, py - y);
      if (!best || distance < best.distance) best = { distance, x, y };
    }
    if (best && best.distance <= maxMetres) nearest.push(best);
  }
  nearest.sort((a, b) => a.distance - b.distance);
  const candidates: { distance: number; point: LonLat }[] = [];
  for (const { x, y, distance } of nearest) {
    // Along the line from the destination through the edge point, just beyond it and just short of it.
    const ux = distance === 0 ? 1 : (x - px) / distance;
    const uy = distance === 0 ? 0 : (y - py) / distance;
    for (const offset of EDGE_OFFSETS_METRES) {
      for (const side of [1, -1]) {
        const along = distance + side * offset;
        if (along < 0) continue;
        const point: LonLat = [(px + ux * along) / projection.metresPerDegreeLon, (py + uy * along) / projection.metresPerDegreeLat];
        if (mayPark(rules.at(point))) candidates.push({ distance: along, point });
      }
    }
  }
  candidates.sort((a, b) => a.distance - b.distance);
  return [...atDestination, ...candidates.filter((candidate) => candidate.distance <= maxMetres).map((candidate) => candidate.point)];
}

/** A ride's chosen end: its leg, and where the rider walks on from (null when the ride ends at the destination). */
export interface RideEnd<Leg> {
  leg: Leg;
  walkFrom: LonLat | null;
}

/**
 * The first of the places `parkingCandidates` offers (at most RIDE_END_ATTEMPTS) where the ride,
 * planned by `rideTo`, really ends where parking is allowed: the leg ends where its last point
 * snapped, which may not be the candidate itself. Null when none does.
 */
export function endRide<Leg>(
  rules: ZoneRules,
  destination: LonLat,
  maxMetres: number,
  rideTo: (candidate: LonLat, atDestination: boolean) => { leg: Leg; end: LonLat } | null,
): RideEnd<Leg> | null {
  for (const candidate of parkingCandidates(rules, destination, maxMetres).slice(0, RIDE_END_ATTEMPTS)) {
    const atDestination = candidate === destination;
    const ride = rideTo(candidate, atDestination);
    if (!ride || !mayPark(rules.at(ride.end))) continue;
    return { leg: ride.leg, walkFrom: atDestination ? null : ride.end };
  }
  return null;
}
