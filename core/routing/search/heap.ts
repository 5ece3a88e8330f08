/**
 * A 4-ary min-heap of (key, value) pairs in typed arrays, with lazy deletion: a value may be
 * pushed again with a smaller key and its stale entries are skipped by the caller. Reused across
 * queries so a search allocates nothing once warm. Four children per entry halve the depth a
 * push climbs and a pop sinks through, for a few more comparisons per level.
 */
export class MinHeap {
  private keys: Float64Array;
  private values: Int32Array;
  size = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(capacity);
    this.values = new Int32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  push(key: number, value: number): void {
    if (this.size === this.keys.length) this.grow();
    let index = this.size++;
    const keys = this.keys;
    const values = this.values;
    while (index > 0) {
      const parent = (index - 1) >> 2;
      if (keys[parent]! <= key) break;
      keys[index] = keys[parent]!;
      values[index] = values[parent]!;
      index = parent;
    }
    keys[index] = key;
    values[index] = value;
  }

  peekKey(): number {
    return this.keys[0]!;
  }

  /** Removes the smallest entry and returns its value; read its key with peekKey() first. */
  pop(): number {
    const keys = this.keys;
    const values = this.values;
    const top = values[0]!;
    const last = --this.size;
    if (last > 0) {
      const key = keys[last]!;
      const value = values[last]!;
      let index = 0;
      for (;;) {
        const first = 4 * index + 1;
        if (first >= last) break;
        let child = first;
        let childKey = keys[first]!;
        const end = first + 4 < last ? first + 4 : last;
        for (let other = first + 1; other < end; other++) {
          if (keys[other]! < childKey) {
            child = other;
            childKey = keys[other]!;
          }
        }
        if (childKey >= key) break;
        keys[index] = childKey;
        values[index] = values[child]!;
        index = child;
      }
      keys[index] = key;
      values[index] = value;
    }
    return top;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    const values = new Int32Array(this.values.length * 2);
    values.set(this.values);
    this.keys = keys;
    this.values = values;
  }
}
