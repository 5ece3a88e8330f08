import { deflateSync } from 'node:zlib';
import { PbfWriter } from 'pbf';
import type { RelationMember, Tags } from './types.ts';

/**
 * A minimal OSM PBF writer (dense nodes, ways, relations; zlib blobs of at most 8000 elements, as
 * osmium writes them). The tests use it to check the reader against the XML of the same fixture,
 * and the benchmark to make city-sized inputs. Field numbers follow osmformat.proto.
 */

export interface OsmElements {
  /** `version` is written as the element's metadata when given (0 or absent: none, as stripped extracts). */
  readonly nodes: { id: number; lonE7: number; latE7: number; tags: Tags | null; version?: number }[];
  readonly ways: { id: number; refs: readonly number[]; tags: Tags; version?: number }[];
  readonly relations: { id: number; members: readonly RelationMember[]; tags: Tags }[];
}

const MEMBER_TYPE = { node: 0, way: 1, relation: 2 } as const;

function message(write: (pbf: PbfWriter) => void): Uint8Array {
  const pbf = new PbfWriter();
  write(pbf);
  return pbf.finish();
}

const deltas = (values: readonly number[]): number[] => values.map((value, i) => value - (i > 0 ? values[i - 1]! : 0));

function frame(type: string, block: Uint8Array): Buffer {
  const blob = message((pbf) => {
    pbf.writeVarintField(2, block.length);
    pbf.writeBytesField(3, deflateSync(block));
  });
  const header = message((pbf) => {
    pbf.writeStringField(1, type);
    pbf.writeVarintField(3, blob.length);
  });
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, blob]);
}

const ELEMENTS_PER_BLOCK = 8000;

interface StringTable {
  readonly strings: string[];
  id(text: string): number;
}

function stringTable(): StringTable {
  const strings = [''];
  const index = new Map<string, number>([['', 0]]);
  return {
    strings,
    id(text: string): number {
      let value = index.get(text);
      if (value === undefined) {
        value = strings.length;
        strings.push(text);
        index.set(text, value);
      }
      return value;
    },
  };
}

function primitiveBlock(table: StringTable, group: Uint8Array, granularity: number): Uint8Array {
  const encoder = new TextEncoder();
  return message((pbf) => {
    pbf.writeBytesField(1, message((strings) => table.strings.forEach((text) => strings.writeBytesField(1, encoder.encode(text)))));
    pbf.writeBytesField(2, group);
    pbf.writeVarintField(17, granularity);
  });
}

function denseGroup(nodes: OsmElements['nodes'], table: StringTable, granularity: number): Uint8Array {
  const dense = message((pbf) => {
    pbf.writePackedSVarint(1, deltas(nodes.map((n) => n.id)));
    if (nodes.some((n) => n.version)) pbf.writeBytesField(5, message((info) => info.writePackedVarint(1, nodes.map((n) => n.version ?? 0))));
    pbf.writePackedSVarint(8, deltas(nodes.map((n) => Math.round((n.latE7 * 100) / granularity))));
    pbf.writePackedSVarint(9, deltas(nodes.map((n) => Math.round((n.lonE7 * 100) / granularity))));
    const keysVals: number[] = [];
    for (const node of nodes) {
      for (const [key, value] of Object.entries(node.tags ?? {})) keysVals.push(table.id(key), table.id(value));
      keysVals.push(0);
    }
    pbf.writePackedVarint(10, keysVals);
  });
  return message((group) => group.writeBytesField(2, dense));
}

function wayGroup(ways: OsmElements['ways'], table: StringTable): Uint8Array {
  return message((group) => {
    for (const way of ways) {
      group.writeBytesField(3, message((pbf) => {
        pbf.writeVarintField(1, way.id);
        pbf.writePackedVarint(2, Object.keys(way.tags).map(table.id));
        pbf.writePackedVarint(3, Object.values(way.tags).map(table.id));
        if (way.version) pbf.writeBytesField(4, message((info) => info.writeVarintField(1, way.version!)));
        pbf.writePackedSVarint(8, deltas(way.refs));
      }));
    }
  });
}

function relationGroup(relations: OsmElements['relations'], table: StringTable): Uint8Array {
  return message((group) => {
    for (const relation of relations) {
      group.writeBytesField(4, message((pbf) => {
        pbf.writeVarintField(1, relation.id);
        pbf.writePackedVarint(2, Object.keys(relation.tags).map(table.id));
        pbf.writePackedVarint(3, Object.values(relation.tags).map(table.id));
        pbf.writePackedVarint(8, relation.members.map((m) => table.id(m.role)));
        pbf.writePackedSVarint(9, deltas(relation.members.map((m) => m.ref)));
        pbf.writePackedVarint(10, relation.members.map((m) => MEMBER_TYPE[m.type]));
      }));
    }
  });
}

/** The whole file: a header block, then nodes, ways and relations in blocks of 8000. */
export function encodePbf(elements: OsmElements, granularity = 100): Buffer {
  const header = message((pbf) => {
    pbf.writeStringField(4, 'OsmSchema-V0.6');
    pbf.writeStringField(4, 'DenseNodes');
  });
  const frames = [frame('OSMHeader', header)];
  const blocks = <T>(items: readonly T[], group: (chunk: T[], table: StringTable) => Uint8Array): void => {
    for (let start = 0; start < items.length; start += ELEMENTS_PER_BLOCK) {
      const table = stringTable();
      const body = group(items.slice(start, start + ELEMENTS_PER_BLOCK), table);
      frames.push(frame('OSMData', primitiveBlock(table, body, granularity)));
    }
  };
  blocks(elements.nodes, (chunk, table) => denseGroup(chunk, table, granularity));
  blocks(elements.ways, wayGroup);
  blocks(elements.relations, relationGroup);
  return Buffer.concat(frames);
}
