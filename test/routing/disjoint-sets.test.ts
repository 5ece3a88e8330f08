import { describe, expect, it } from 'vitest';
import { DisjointSets } from '../../core/routing/network/disjoint-sets.ts';
import { seededRandom } from './real-graphs.ts';

/** Union-find agrees with a breadth-first search on which members a set of links connects. */
describe('DisjointSets', () => {
  it('joins exactly the members a breadth-first search reaches, and keeps the second set\'s representative', () => {
    const random = seededRandom(11);
    const size = 2_000;
    const neighbours: number[][] = Array.from({ length: size }, () => []);
    const sets = new DisjointSets(size);
    // Fewer links than members: many pieces, some single members.
    for (let link = 0; link < 1_500; link++) {
      const a = Math.floor(random() * size);
      const b = Math.floor(random() * size);
      neighbours[a]!.push(b);
      neighbours[b]!.push(a);
      const representative = sets.find(b);
      sets.union(a, b);
      expect(sets.find(a)).toBe(representative);
    }
    const piece = new Int32Array(size).fill(-1);
    for (let start = 0; start < size; start++) {
      if (piece[start] !== -1) continue;
      piece[start] = start;
      const queue = [start];
      for (let next = 0; next < queue.length; next++) {
        for (const neighbour of neighbours[queue[next]!]!) {
          if (piece[neighbour] === -1) {
            piece[neighbour] = start;
            queue.push(neighbour);
          }
        }
      }
    }
    let pieces = 0;
    for (let a = 0; a < size; a++) {
      if (piece[a] === a) pieces++;
      for (const b of [a + 1, Math.floor(random() * size)]) {
        if (b < size) expect(sets.find(a) === sets.find(b), `${a} and ${b}`).toBe(piece[a] === piece[b]);
      }
    }
    expect(pieces).toBeGreaterThan(100);
    expect(pieces).toBeLessThan(size);
  });
});
