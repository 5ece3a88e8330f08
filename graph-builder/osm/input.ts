import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import unbzip2Stream from 'unbzip2-stream';
import { OsmInputError } from './types.ts';

export type Compression = 'none' | 'gzip' | 'bzip2';
export type OsmFormat = 'pbf' | 'xml';

export interface OsmInput {
  readonly path: string;
  readonly name: string;
  readonly compression: Compression;
  readonly totalBytes: number;
  /** Decompressed bytes, chunk by chunk. */
  readonly chunks: AsyncIterable<Buffer>;
  /** Compressed bytes consumed so far (for progress against totalBytes). */
  bytesRead(): number;
}

/** Compression is recognised by magic bytes, not by file name, so misnamed files still read. */
async function sniffCompression(path: string): Promise<Compression> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(3), 0, 3, 0);
    if (bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return 'gzip';
    if (bytesRead === 3 && buffer.toString('latin1') === 'BZh') return 'bzip2';
    return 'none';
  } finally {
    await handle.close();
  }
}

export async function openOsmInput(path: string): Promise<OsmInput> {
  const name = basename(path);
  let totalBytes: number;
  try {
    totalBytes = (await stat(path)).size;
  } catch (error) {
    throw new OsmInputError(name, `cannot read input file (${(error as Error).message})`, { cause: error });
  }
  const compression = await sniffCompression(path);
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  let chunks: Readable = raw;
  if (compression !== 'none') {
    const decompressor = compression === 'gzip' ? createGunzip() : unbzip2Stream();
    // pipeline destroys the last stream with the first error, which ends the consumer's iteration;
    // the PassThrough gives unbzip2-stream's old-style stream an async iterator.
    chunks = pipeline(raw, decompressor, new PassThrough(), () => {});
  }
  return { path, name, compression, totalBytes, chunks, bytesRead: () => raw.bytesRead };
}

/** Sees the first non-blank decompressed byte: XML starts with `<`, PBF with a length prefix. */
export async function detectFormat(input: OsmInput): Promise<{ format: OsmFormat; chunks: AsyncIterable<Buffer> }> {
  const iterator = input.chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new OsmInputError(input.name, 'file is empty');
  const head: Buffer = first.value;
  let index = 0;
  while (index < head.length && (head[index] === 0x20 || head[index] === 0x0a || head[index] === 0x0d || head[index] === 0x09 || head[index] === 0xef || head[index] === 0xbb || head[index] === 0xbf)) index++;
  const format: OsmFormat = head[index] === 0x3c ? 'xml' : 'pbf';
  async function* replay(): AsyncIterable<Buffer> {
    yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value as Buffer;
    }
  }
  return { format, chunks: replay() };
}
