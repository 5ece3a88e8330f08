import { PbfReader as Pbf } from 'pbf';
import { inflateSync } from 'node:zlib';
import { OsmInputError, type MemberType, type OsmHandlers, type RelationMember, type Tags } from './types.ts';

/**
 * Streaming reader for the OSM PBF format (https://wiki.openstreetmap.org/wiki/PBF_Format):
 * a sequence of [u32 big-endian length][BlobHeader][Blob] frames, each blob a zlib-compressed
 * PrimitiveBlock. One block is decoded at a time, so memory stays at a few blocks whatever the
 * file size. Field numbers below are those of fileformat.proto and osmformat.proto.
 */

const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);
const MEMBER_TYPES: readonly MemberType[] = ['node', 'way', 'relation'];

/** Accumulates stream chunks and hands out exact byte ranges without re-copying every chunk. */
class ByteQueue {
  private chunks: Buffer[] = [];
  length = 0;
  /** Absolute offset in the decompressed stream of the queue's first byte (for error messages). */
  offset = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The first `count` bytes as one buffer, without consuming them. */
  peek(count: number): Buffer {
    if (this.chunks[0]!.length < count) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!.subarray(0, count);
  }

  take(count: number): Buffer {
    const bytes = this.peek(count);
    const rest = this.chunks[0]!.subarray(count);
    this.chunks[0] = rest;
    if (rest.length === 0) this.chunks.shift();
    this.length -= count;
    this.offset += count;
    return bytes;
  }
}

interface Frame {
  readonly type: string;
  readonly blob: Buffer;
  readonly offset: number;
}

async function* frames(file: string, chunks: AsyncIterable<Buffer>): AsyncGenerator<Frame> {
  const queue = new ByteQueue();
  let headerLength = -1;
  let type = '';
  let dataSize = -1;
  let frameOffset = 0;
  const drain = function* (): Generator<Frame> {
    for (;;) {
      if (headerLength < 0) {
        if (queue.length < 4) return;
        frameOffset = queue.offset;
        headerLength = queue.take(4).readUInt32BE(0);
        if (headerLength === 0 || headerLength > MAX_HEADER_BYTES) {
          throw new OsmInputError(file, `not a valid PBF file (blob header length ${headerLength} at byte ${frameOffset})`);
        }
      }
      if (dataSize < 0) {
        if (queue.length < headerLength) return;
        const header = decodeBlobHeader(file, queue.take(headerLength), frameOffset);
        type = header.type;
        dataSize = header.dataSize;
      }
      if (queue.length < dataSize) return;
      yield { type, blob: queue.take(dataSize), offset: frameOffset };
      headerLength = -1;
      dataSize = -1;
    }
  };
  for await (const chunk of chunks) {
    queue.push(chunk);
    yield* drain();
  }
  if (headerLength >= 0 || queue.length > 0) {
    throw new OsmInputError(file, `truncated PBF file: the block starting at byte ${frameOffset} is incomplete`);
  }
}

function decodeBlobHeader(file: string, bytes: Buffer, offset: number): { type: string; dataSize: number } {
  const header = { type: '', dataSize: -1 };
  try {
    new Pbf(bytes).readFields((tag, result, pbf) => {
      if (tag === 1) result.type = pbf.readString();
      else if (tag === 3) result.dataSize = pbf.readVarint();
    }, header);
  } catch (error) {
    throw new OsmInputError(file, `corrupt PBF blob header at byte ${offset}`, { cause: error });
  }
  if (!header.type || header.dataSize < 0 || header.dataSize > MAX_BLOB_BYTES) {
    throw new OsmInputError(file, `not a valid PBF file (bad blob header at byte ${offset})`);
  }
  return header;
}

function decodeBlob(file: string, frame: Frame): Uint8Array {
  const blob: { raw?: Uint8Array; zlib?: Uint8Array; unsupported?: string } = {};
  try {
    new Pbf(frame.blob).readFields((tag, result, pbf) => {
      if (tag === 1) result.raw = pbf.readBytes();
      else if (tag === 3) result.zlib = pbf.readBytes();
      else if (tag === 4) result.unsupported = 'lzma';
      else if (tag === 6) result.unsupported = 'lz4';
      else if (tag === 7) result.unsupported = 'zstd';
    }, blob);
    if (blob.raw) return blob.raw;
    if (blob.zlib) return inflateSync(blob.zlib);
  } catch (error) {
    throw new OsmInputError(file, `corrupt PBF block at byte ${frame.offset} (${(error as Error).message})`, { cause: error });
  }
  throw new OsmInputError(file, `PBF block at byte ${frame.offset} uses ${blob.unsupported ?? 'no'} compression, which is not supported`);
}

function checkHeaderBlock(file: string, bytes: Uint8Array): void {
  const required: string[] = [];
  new Pbf(bytes).readFields((tag, list, pbf) => {
    if (tag === 4) list.push(pbf.readString());
  }, required);
  const unsupported = required.filter((feature) => !SUPPORTED_FEATURES.has(feature));
  if (unsupported.length > 0) throw new OsmInputError(file, `PBF requires unsupported features: ${unsupported.join(', ')}`);
}

/**
 * A block's string table, decoded on demand: a pass that skips most elements (node blocks in the
 * way pass, untagged nodes in the node pass) never pays for decoding their strings.
 */
class StringTable {
  private readonly decoded: (string | undefined)[] = [];
  private static readonly decoder = new TextDecoder();

  constructor(
    private readonly bytes: Uint8Array,
    /** start, end byte offsets of each string in `bytes`. */
    private readonly ranges: readonly number[],
  ) {}

  get(index: number): string {
    let text = this.decoded[index];
    if (text === undefined) {
      text = StringTable.decoder.decode(this.bytes.subarray(this.ranges[2 * index], this.ranges[2 * index + 1]));
      this.decoded[index] = text;
    }
    return text;
  }

  indexOf(text: string): number {
    const wanted = new TextEncoder().encode(text);
    for (let i = 0; i < this.ranges.length / 2; i++) {
      const start = this.ranges[2 * i]!;
      if (this.ranges[2 * i + 1]! - start !== wanted.length) continue;
      let same = true;
      for (let k = 0; k < wanted.length && same; k++) same = this.bytes[start + k] === wanted[k];
      if (same) return i;
    }
    return -1;
  }
}

interface BlockContext {
  strings: StringTable;
  /** String index of handlers.wayKey in this block: -1 = not in the block, so no way has it; undefined = no filter. */
  wayKeyIndex?: number;
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

/** 1e-9 degree units (PBF) to 1e-7 (graph). */
function toE7(offset: number, granularity: number, value: number): number {
  return Math.round((offset + granularity * value) / 100);
}

function tagsFrom(strings: StringTable, keys: readonly number[], values: readonly number[]): Tags {
  const tags: Tags = {};
  for (let i = 0; i < keys.length; i++) tags[strings.get(keys[i]!)] = strings.get(values[i]!);
  return tags;
}

function decodeDenseNodes(pbf: Pbf, end: number, context: BlockContext, handlers: OsmHandlers): void {
  const ids: number[] = [];
  const lats: number[] = [];
  const lons: number[] = [];
  const keysVals: number[] = [];
  const versions: number[] = [];
  pbf.readFields((tag) => {
    if (tag === 1) pbf.readPackedSVarint(ids);
    else if (tag === 5) readDenseVersions(pbf, versions);
    else if (tag === 8) pbf.readPackedSVarint(lats);
    else if (tag === 9) pbf.readPackedSVarint(lons);
    else if (tag === 10) pbf.readPackedVarint(keysVals);
  }, null, end);
  const onNode = handlers.node!;
  let id = 0;
  let lat = 0;
  let lon = 0;
  let kv = 0;
  for (let i = 0; i < ids.length; i++) {
    id += ids[i]!;
    lat += lats[i]!;
    lon += lons[i]!;
    const tagsStart = kv;
    while (kv < keysVals.length && keysVals[kv] !== 0) kv += 2;
    const tagsEnd = kv;
    kv++; // the 0 delimiter
    if (handlers.nodeFilter && !handlers.nodeFilter(id)) continue;
    let tags: Tags | null = null;
    if (tagsEnd > tagsStart) {
      tags = {};
      for (let k = tagsStart; k < tagsEnd; k += 2) tags[context.strings.get(keysVals[k]!)] = context.strings.get(keysVals[k + 1]!);
    }
    onNode(id, toE7(context.lonOffset, context.granularity, lon), toE7(context.latOffset, context.granularity, lat), tags, Math.max(0, versions[i] ?? 0));
  }
}

/** DenseInfo's versions (field 1, packed, not delta-coded); the rest of the metadata is skipped. */
function readDenseVersions(pbf: Pbf, versions: number[]): void {
  const end = pbf.readVarint() + pbf.pos;
  pbf.readFields((tag) => {
    if (tag === 1) pbf.readPackedVarint(versions, true);
  }, null, end);
}

/** An element's Info message (field 4 of Node, Way, Relation): its version, 0 when absent. */
function readInfoVersion(pbf: Pbf): number {
  const end = pbf.readVarint() + pbf.pos;
  const info = { version: 0 };
  pbf.readFields((tag, result) => {
    if (tag === 1) result.version = Math.max(0, pbf.readVarint(true));
  }, info, end);
  return info.version;
}

function decodeNode(pbf: Pbf, end: number, context: BlockContext, handlers: OsmHandlers): void {
  const node = { id: 0, lat: 0, lon: 0, version: 0, keys: [] as number[], values: [] as number[] };
  pbf.readFields((tag, n) => {
    if (tag === 1) n.id = pbf.readSVarint();
    else if (tag === 2) pbf.readPackedVarint(n.keys);
    else if (tag === 3) pbf.readPackedVarint(n.values);
    else if (tag === 4) n.version = readInfoVersion(pbf);
    else if (tag === 8) n.lat = pbf.readSVarint();
    else if (tag === 9) n.lon = pbf.readSVarint();
  }, node, end);
  if (handlers.nodeFilter && !handlers.nodeFilter(node.id)) return;
  const tags = node.keys.length > 0 ? tagsFrom(context.strings, node.keys, node.values) : null;
  handlers.node!(node.id, toE7(context.lonOffset, context.granularity, node.lon), toE7(context.latOffset, context.granularity, node.lat), tags, node.version);
}

function decodeWay(pbf: Pbf, end: number, context: BlockContext, handlers: OsmHandlers): void {
  const way = { id: 0, version: 0, keys: [] as number[], values: [] as number[], refs: [] as number[] };
  const required = context.wayKeyIndex;
  if (required === -1) return;
  pbf.readFields((tag, w) => {
    if (tag === 1) w.id = pbf.readVarint();
    else if (tag === 2) {
      pbf.readPackedVarint(w.keys);
      // Keys precede node refs in the encoding, so a way without the key is dropped here.
      if (required !== undefined && !w.keys.includes(required)) pbf.pos = end;
    } else if (tag === 3) pbf.readPackedVarint(w.values);
    else if (tag === 4) w.version = readInfoVersion(pbf);
    else if (tag === 8) pbf.readPackedSVarint(w.refs);
  }, way, end);
  if (required !== undefined && !way.keys.includes(required)) return;
  let ref = 0;
  for (let i = 0; i < way.refs.length; i++) way.refs[i] = ref += way.refs[i]!;
  handlers.way!(way.id, way.refs, tagsFrom(context.strings, way.keys, way.values), way.version);
}

function decodeRelation(pbf: Pbf, end: number, context: BlockContext, handlers: OsmHandlers): void {
  const relation = { id: 0, keys: [] as number[], values: [] as number[], roles: [] as number[], ids: [] as number[], types: [] as number[] };
  pbf.readFields((tag, r) => {
    if (tag === 1) r.id = pbf.readVarint();
    else if (tag === 2) pbf.readPackedVarint(r.keys);
    else if (tag === 3) pbf.readPackedVarint(r.values);
    else if (tag === 8) pbf.readPackedVarint(r.roles);
    else if (tag === 9) pbf.readPackedSVarint(r.ids);
    else if (tag === 10) pbf.readPackedVarint(r.types);
  }, relation, end);
  const members: RelationMember[] = [];
  let ref = 0;
  for (let i = 0; i < relation.ids.length; i++) {
    ref += relation.ids[i]!;
    members.push({ type: MEMBER_TYPES[relation.types[i]!] ?? 'node', ref, role: context.strings.get(relation.roles[i]!) });
  }
  handlers.relation!(relation.id, members, tagsFrom(context.strings, relation.keys, relation.values));
}

function decodePrimitiveBlock(bytes: Uint8Array, handlers: OsmHandlers): void {
  const pbf = new Pbf(bytes);
  const ranges: number[] = [];
  const context: BlockContext = { strings: new StringTable(bytes, ranges), granularity: 100, latOffset: 0, lonOffset: 0 };
  const groups: [number, number][] = [];
  // Groups may precede the granularity fields, so collect their ranges and decode them after.
  pbf.readFields((tag) => {
    if (tag === 1) {
      const end = pbf.readVarint() + pbf.pos;
      pbf.readFields((stringTag) => {
        if (stringTag !== 1) return;
        const length = pbf.readVarint();
        ranges.push(pbf.pos, pbf.pos + length);
        pbf.pos += length;
      }, null, end);
    } else if (tag === 2) {
      const end = pbf.readVarint() + pbf.pos;
      groups.push([pbf.pos, end]);
      pbf.pos = end;
    } else if (tag === 17) context.granularity = pbf.readVarint();
    else if (tag === 19) context.latOffset = pbf.readVarint();
    else if (tag === 20) context.lonOffset = pbf.readVarint();
  }, null);
  if (handlers.wayKey !== undefined) context.wayKeyIndex = context.strings.indexOf(handlers.wayKey);
  for (const [start, end] of groups) {
    pbf.pos = start;
    pbf.readFields((tag) => {
      const wants = tag === 1 || tag === 2 ? handlers.node : tag === 3 ? handlers.way : tag === 4 ? handlers.relation : undefined;
      if (!wants) return; // readFields skips the unread field
      const elementEnd = pbf.readVarint() + pbf.pos;
      if (tag === 1) decodeNode(pbf, elementEnd, context, handlers);
      else if (tag === 2) decodeDenseNodes(pbf, elementEnd, context, handlers);
      else if (tag === 3) decodeWay(pbf, elementEnd, context, handlers);
      else decodeRelation(pbf, elementEnd, context, handlers);
      pbf.pos = elementEnd;
    }, null, end);
  }
}

export async function readPbf(file: string, chunks: AsyncIterable<Buffer>, handlers: OsmHandlers): Promise<void> {
  let sawHeader = false;
  for await (const frame of frames(file, chunks)) {
    const bytes = decodeBlob(file, frame);
    if (frame.type === 'OSMHeader') {
      checkHeaderBlock(file, bytes);
      sawHeader = true;
    } else if (frame.type === 'OSMData') {
      if (!sawHeader) throw new OsmInputError(file, 'not a valid PBF file (data before the OSMHeader block)');
      try {
        decodePrimitiveBlock(bytes, handlers);
      } catch (error) {
        throw new OsmInputError(file, `corrupt PBF data block at byte ${frame.offset} (${(error as Error).message})`, { cause: error });
      }
    }
  }
  if (!sawHeader) throw new OsmInputError(file, 'not a valid PBF file (no OSMHeader block)');
}
