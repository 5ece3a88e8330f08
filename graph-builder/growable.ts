type NumericArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;
type NumericArrayConstructor<T extends NumericArray> = { new (length: number): T };

/** An append-only typed array that doubles as needed: compact storage while the size is unknown. */
export class Growable<T extends NumericArray> {
  private data: T;
  length = 0;

  constructor(
    private readonly Type: NumericArrayConstructor<T>,
    capacity = 1024,
  ) {
    this.data = new Type(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new this.Type(this.data.length * 2);
      bigger.set(this.data as never);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  get(index: number): number {
    return this.data[index]!;
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }

  /** A right-sized copy. */
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }

  /** A view of the filled part (no copy; invalid after the next push that grows). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
}
