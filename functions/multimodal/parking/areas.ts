import { pointInRing } from '../../../core/cities/lookup.ts';
import type { Graph } from '../../../core/graph/layout.ts';
import { COORDINATE_SCALE } from '../../../core/graph/layout.ts';
import type { LonLat } from '../../../core/geo.ts';

/**
 * The named areas a city graph carries (graph-builder/city-recipes.ts `areas`: London's boroughs, as
 * `london_borough:<name>`), for the parking rules of the area a destination lies in. Each area's
 * rings are read from the graph once per loaded graph; a point is inside by the even-odd rule
 * over all its rings (outer rings and holes alike), after a bounding-box test.
 */

export interface NamedArea {
  kind: string;
  name: string;
  rings: [number, number][][];
  bbox: [number, number, number, number];
}

const cache = new WeakMap<Graph, NamedArea[]>();

export function namedAreas(graph: Graph): NamedArea[] {
  let areas = cache.get(graph);
  if (areas) return areas;
  areas = [];
  for (let area = 0; area < graph.areaName.length; area++) {
    const [kind, ...rest] = graph.string(graph.areaName[area]!).split(':');
    const rings: [number, number][][] = [];
    const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let ring = graph.areaFirstRing[area]!; ring < graph.areaFirstRing[area + 1]!; ring++) {
      const points: [number, number][] = [];
      for (let point = graph.ringFirstPoint[ring]!; point < graph.ringFirstPoint[ring + 1]!; point++) {
        const lon = graph.areaCoords[2 * point]! / COORDINATE_SCALE;
        const lat = graph.areaCoords[2 * point + 1]! / COORDINATE_SCALE;
        points.push([lon, lat]);
        bbox[0] = Math.min(bbox[0], lon);
        bbox[1] = Math.min(bbox[1], lat);
        bbox[2] = Math.max(bbox[2], lon);
        bbox[3] = Math.max(bbox[3], lat);
      }
      rings.push(points);
    }
    areas.push({ kind: kind!, name: rest.join(':'), rings, bbox });
  }
  cache.set(graph, areas);
  return areas;
}

/** The area of a kind containing the point, or null. */
export function areaAt(graph: Graph, point: LonLat, kind: string): NamedArea | null {
  const [lon, lat] = point;
  for (const area of namedAreas(graph)) {
    if (area.kind !== kind || lon < area.bbox[0] || lat < area.bbox[1] || lon > area.bbox[2] || lat > area.bbox[3]) continue;
    let inside = false;
    for (const ring of area.rings) if (pointInRing(point, ring)) inside = !inside;
    if (inside) return area;
  }
  return null;
}
