type NumericArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;
type NumericArrayConstructor<T extends NumericArray> = { new (length: number): T; from(source: ArrayLike<number>): T };

/**
 * An append-only numeric list of unknown final size, delivered as the typed array it is meant to
 * be. Values are kept in a Float64Array while growing: one element kind for every instance keeps
 * `push` monomorphic (a generic class over six typed-array kinds was the builder's hottest
 * function), at the cost of 8 bytes per value until `toArray`.
 */
export class Growable<T extends NumericArray> {
  private data: Float64Array;
  length = 0;

  constructor(
    private readonly Type: NumericArrayConstructor<T>,
    capacity = 1024,
  ) {
    this.data = new Float64Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
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

  /** The values as a right-sized array of the target type. */
  toArray(): T {
    return this.Type.from(this.data.subarray(0, this.length));
  }
}
