/**
 * A binary min-heap of (key, value) pairs in typed arrays, with lazy deletion: a value may be
 * pushed again with a smaller key and its stale entries are skipped by the caller. Reused across
 * queries so a search allocates nothing once warm.
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
      const parent = (index - 1) >> 1;
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
        let child = 2 * index + 1;
        if (child >= last) break;
        if (child + 1 < last && keys[child + 1]! < keys[child]!) child++;
        if (keys[child]! >= key) break;
        keys[index] = keys[child]!;
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
