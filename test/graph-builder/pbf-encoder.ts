import { deflateSync } from 'node:zlib';
import { PbfWriter } from 'pbf';
import type { RelationMember, Tags } from '../../graph-builder/osm/types.ts';

/**
 * A minimal OSM PBF writer for tests (dense nodes, ways, relations; zlib blobs), so the reader
 * can be checked against the XML of the same fixture. Field numbers follow osmformat.proto.
 */

export interface OsmElements {
  readonly nodes: { id: number; lonE7: number; latE7: number; tags: Tags | null }[];
  readonly ways: { id: number; refs: readonly number[]; tags: Tags }[];
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

/** `granularity` in nanodegrees (OSM default 100); coarser values exercise the reader's scaling. */
export function encodePbf(elements: OsmElements, granularity = 100): Buffer {
  const strings = [''];
  const index = new Map<string, number>([['', 0]]);
  const id = (text: string): number => {
    let value = index.get(text);
    if (value === undefined) {
      value = strings.length;
      strings.push(text);
      index.set(text, value);
    }
    return value;
  };
  const nodes = elements.nodes;
  const dense = message((pbf) => {
    pbf.writePackedSVarint(1, deltas(nodes.map((n) => n.id)));
    pbf.writePackedSVarint(8, deltas(nodes.map((n) => Math.round((n.latE7 * 100) / granularity))));
    pbf.writePackedSVarint(9, deltas(nodes.map((n) => Math.round((n.lonE7 * 100) / granularity))));
    const keysVals: number[] = [];
    for (const node of nodes) {
      for (const [key, value] of Object.entries(node.tags ?? {})) keysVals.push(id(key), id(value));
      keysVals.push(0);
    }
    pbf.writePackedVarint(10, keysVals);
  });
  const ways = elements.ways.map((way) => message((pbf) => {
    pbf.writeVarintField(1, way.id);
    pbf.writePackedVarint(2, Object.keys(way.tags).map(id));
    pbf.writePackedVarint(3, Object.values(way.tags).map(id));
    pbf.writePackedSVarint(8, deltas(way.refs));
  }));
  const relations = elements.relations.map((relation) => message((pbf) => {
    pbf.writeVarintField(1, relation.id);
    pbf.writePackedVarint(2, Object.keys(relation.tags).map(id));
    pbf.writePackedVarint(3, Object.values(relation.tags).map(id));
    pbf.writePackedVarint(8, relation.members.map((m) => id(m.role)));
    pbf.writePackedSVarint(9, deltas(relation.members.map((m) => m.ref)));
    pbf.writePackedVarint(10, relation.members.map((m) => MEMBER_TYPE[m.type]));
  }));
  const block = message((pbf) => {
    pbf.writeBytesField(1, message((table) => strings.forEach((text) => table.writeBytesField(1, new TextEncoder().encode(text)))));
    pbf.writeBytesField(2, message((group) => group.writeBytesField(2, dense)));
    pbf.writeBytesField(2, message((group) => ways.forEach((way) => group.writeBytesField(3, way))));
    pbf.writeBytesField(2, message((group) => relations.forEach((relation) => group.writeBytesField(4, relation))));
    pbf.writeVarintField(17, granularity);
  });
  const header = message((pbf) => {
    pbf.writeStringField(4, 'OsmSchema-V0.6');
    pbf.writeStringField(4, 'DenseNodes');
  });
  return Buffer.concat([frame('OSMHeader', header), frame('OSMData', block)]);
}
