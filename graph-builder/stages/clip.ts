import type { Ring } from '../../core/cities/boundaries.ts';
import { pointInRing } from '../../core/cities/lookup.ts';
import { boundingBox } from '../../core/geo.ts';
import type { CollectedNodes, CollectedWays } from './read/collect.ts';

/**
 * Stage `clip`: the ways the city keeps, those with at least one node inside its outline. A kept
 * way keeps all its nodes, so streets crossing the boundary are not cut short.
 */

export interface ClipInput {
  readonly boundary: Ring;
  readonly ways: CollectedWays;
  readonly nodes: CollectedNodes;
}

export interface ClipOutput {
  /** 1 for each way (collected order) the graph keeps. */
  readonly wayKept: Uint8Array;
  readonly waysOutsideCity: number;
}

export function clipToCity({ boundary, ways, nodes }: ClipInput): ClipOutput {
  const [west, south, east, north] = boundingBox(boundary);
  // -1 not yet known, else 0 or 1: ways share nodes, and the ring test is the costly part.
  const inside = new Int8Array(nodes.index.size).fill(-1);
  const isInside = (d: number): boolean => {
    if (inside[d] === -1) {
      const lon = nodes.lonE7[d]! / 1e7;
      const lat = nodes.latE7[d]! / 1e7;
      inside[d] = lon >= west && lon <= east && lat >= south && lat <= north && pointInRing([lon, lat], boundary) ? 1 : 0;
    }
    return inside[d] === 1;
  };
  const wayKept = new Uint8Array(ways.count);
  let waysOutsideCity = 0;
  for (let w = 0; w < ways.count; w++) {
    for (let p = ways.nodeFirst[w]!; p < ways.nodeFirst[w + 1]!; p++) {
      const d = nodes.index.get(ways.nodeRefs[p]!);
      if (nodes.present[d] && isInside(d)) {
        wayKept[w] = 1;
        break;
      }
    }
    if (!wayKept[w]) waysOutsideCity++;
  }
  return { wayKept, waysOutsideCity };
}
