/**
 * OSM id -> dense index, as an open-addressing hash table on typed arrays. A JS Map of numbers
 * costs ~70 bytes per entry; this costs ~24, which is what lets the builder keep every needed
 * node of a city-sized extract. Ids are non-zero integers of magnitude below 2^53 (OSM ids; JOSM
 * files use negative ids for new objects).
 */
export class IdIndex {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  size = 0;

  constructor(expected = 1024) {
    let capacity = 1024;
    while (capacity < expected * 2) capacity *= 2;
    this.keys = new Float64Array(capacity);
    this.values = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  private slot(id: number): number {
    // Mix high and low words: OSM ids are dense, so plain modulo would cluster.
    const low = id >>> 0;
    const high = Math.floor(id / 4294967296) >>> 0;
    let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    let slot = h & this.mask;
    // Key 0 marks an empty slot; OSM ids are never 0.
    while (this.keys[slot] !== 0 && this.keys[slot] !== id) slot = (slot + 1) & this.mask;
    return slot;
  }

  get(id: number): number {
    const slot = this.slot(id);
    return this.keys[slot] === id ? this.values[slot]! : -1;
  }

  has(id: number): boolean {
    return this.get(id) >= 0;
  }

  /** The index of `id`, adding it with the next dense index if new. */
  intern(id: number): number {
    const slot = this.slot(id);
    if (this.keys[slot] === id) return this.values[slot]!;
    if (id === 0 || !Number.isSafeInteger(id)) throw new RangeError(`OSM id ${id} is not a non-zero integer`);
    this.keys[slot] = id;
    this.values[slot] = this.size;
    this.size++;
    if (this.size * 2 > this.keys.length) this.grow();
    return this.size - 1;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Float64Array(oldKeys.length * 2);
    this.values = new Int32Array(oldKeys.length * 2);
    this.mask = this.keys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i]!;
      if (key === 0) continue;
      const slot = this.slot(key);
      this.keys[slot] = key;
      this.values[slot] = oldValues[i]!;
    }
  }
}
