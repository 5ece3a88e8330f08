declare module 'unbzip2-stream' {
  import type { Transform } from 'node:stream';
  /** A transform stream decompressing bzip2. */
  export default function unbzip2Stream(): Transform;
}
