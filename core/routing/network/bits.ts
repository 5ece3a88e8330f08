/**
 * Sets of edges (or nodes) as bits, 32 to a word. What the search tests for every edge it
 * relaxes (an edge a closure rule or a report touches, an edge a turn restriction begins at) is
 * rare and asked at random: at metro scale (millions of edges) a byte or more per edge misses the
 * processor's caches on most reads, while a bit per edge, an eighth of that, mostly stays in them.
 */

/** An empty set of `count` members. */
export function emptyBits(count: number): Uint32Array {
  return new Uint32Array((count + 31) >>> 5);
}

/** The members `0 .. count - 1` for which `member` holds. */
export function bitsWhere(count: number, member: (index: number) => boolean): Uint32Array {
  const bits = emptyBits(count);
  for (let index = 0; index < count; index++) if (member(index)) bits[index >>> 5]! |= 1 << (index & 31);
  return bits;
}

export function setBit(bits: Uint32Array, index: number): void {
  bits[index >>> 5]! |= 1 << (index & 31);
}

export function hasBit(bits: Uint32Array, index: number): boolean {
  return (bits[index >>> 5]! & (1 << (index & 31))) !== 0;
}
