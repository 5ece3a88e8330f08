import { describe, expect, it } from 'vitest';
import { MinHeap } from '../../core/routing/search/heap.ts';
import { seededRandom } from './real-graphs.ts';

/** The search's 4-ary heap pops keys in order, through growth, ties and interleaved pushes and pops. */
describe('MinHeap', () => {
  it('pops every key in ascending order, as a sorted list does', () => {
    const random = seededRandom(7);
    const heap = new MinHeap(4);
    const reference: number[] = [];
    for (let step = 0; step < 20_000; step++) {
      if (reference.length === 0 || random() < 0.6) {
        // Whole numbers up to 500: many ties.
        const key = Math.floor(random() * 500);
        heap.push(key, step);
        reference.push(key);
      } else {
        reference.sort((a, b) => a - b);
        expect(heap.peekKey()).toBe(reference[0]);
        heap.pop();
        reference.shift();
      }
      expect(heap.size).toBe(reference.length);
    }
    reference.sort((a, b) => a - b);
    for (const key of reference) {
      expect(heap.peekKey()).toBe(key);
      heap.pop();
    }
    expect(heap.size).toBe(0);
  });

  it('returns the value pushed with each key', () => {
    const heap = new MinHeap(2);
    for (const key of [5, 3, 9, 1, 7, 2, 8]) heap.push(key, key * 10);
    const values: number[] = [];
    while (heap.size > 0) values.push(heap.pop());
    expect(values).toEqual([10, 20, 30, 50, 70, 80, 90]);
  });
});
