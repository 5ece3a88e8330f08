import { haversineMetres, type Position } from '../../core/geo.ts';

/** Undirected pieces of a line between consecutive positions, with their metres. */
function pieces(line: readonly Position[]): Map<string, number> {
  const found = new Map<string, number>();
  for (let i = 1; i < line.length; i++) {
    const [a, b] = [line[i - 1]!, line[i]!];
    const key = [a.join(','), b.join(',')].sort().join(' ');
    found.set(key, (found.get(key) ?? 0) + haversineMetres(a[0], a[1], b[0], b[1]));
  }
  return found;
}

/**
 * The share of `line`'s length that `other` also covers, from the geometry alone: two routes'
 * lines share a piece where both pass between the same two positions, in either direction.
 */
export function sharedLengthFraction(line: readonly Position[], other: readonly Position[]): number {
  const mine = pieces(line);
  const theirs = pieces(other);
  let shared = 0;
  let total = 0;
  for (const [key, metres] of mine) {
    total += metres;
    shared += Math.min(metres, theirs.get(key) ?? 0);
  }
  return shared / total;
}
