import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { OsmInputError, type MemberType, type OsmHandlers, type RelationMember, type Tags } from './types.ts';

/**
 * Streaming reader for OSM XML (.osm, as served by the OSM API, Overpass and JOSM). Elements are
 * handed over as they close; only the element being read is held.
 */

interface OpenElement {
  kind: 'node' | 'way' | 'relation';
  id: number;
  /** OSM version, 0 when the file leaves it out. */
  version: number;
  lonE7: number;
  latE7: number;
  tags: Tags;
  refs: number[];
  members: RelationMember[];
  /** JOSM files keep deleted objects with action="delete"; they are not part of the data. */
  deleted: boolean;
}

const toE7 = (value: string | undefined): number => Math.round(Number(value) * 1e7);
const versionOf = (value: string | undefined): number => {
  const version = Number(value);
  return Number.isSafeInteger(version) && version > 0 ? version : 0;
};

export async function readXml(file: string, chunks: AsyncIterable<Buffer>, handlers: OsmHandlers): Promise<void> {
  const parser = new SaxesParser();
  let current: OpenElement | null = null;
  let sawRoot = false;
  let failure: Error | null = null;

  parser.on('error', (error) => {
    failure ??= new OsmInputError(file, `malformed XML (${error.message})`, { cause: error });
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const a = tag.attributes as Record<string, string>;
    switch (tag.name) {
      case 'osm':
      case 'osmChange':
        sawRoot = true;
        return;
      case 'node':
      case 'way':
      case 'relation':
        current = {
          kind: tag.name,
          id: Number(a.id),
          version: versionOf(a.version),
          lonE7: tag.name === 'node' ? toE7(a.lon) : 0,
          latE7: tag.name === 'node' ? toE7(a.lat) : 0,
          tags: {},
          refs: [],
          members: [],
          deleted: a.action === 'delete' || a.visible === 'false',
        };
        return;
      case 'tag':
        if (current && a.k !== undefined) current.tags[a.k] = a.v ?? '';
        return;
      case 'nd':
        if (current?.kind === 'way') current.refs.push(Number(a.ref));
        return;
      case 'member':
        if (current?.kind === 'relation') {
          current.members.push({ type: (a.type ?? 'node') as MemberType, ref: Number(a.ref), role: a.role ?? '' });
        }
        return;
    }
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    const element = current;
    if (!element || tag.name !== element.kind) return;
    current = null;
    if (element.deleted || !Number.isFinite(element.id)) return;
    if (element.kind === 'node') {
      if (!handlers.node || (handlers.nodeFilter && !handlers.nodeFilter(element.id))) return;
      const hasTags = Object.keys(element.tags).length > 0;
      handlers.node(element.id, element.lonE7, element.latE7, hasTags ? element.tags : null, element.version);
    } else if (element.kind === 'way') {
      if (handlers.wayKey === undefined || element.tags[handlers.wayKey] !== undefined) handlers.way?.(element.id, element.refs, element.tags, element.version);
    } else {
      handlers.relation?.(element.id, element.members, element.tags);
    }
  });

  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    parser.write(decoder.write(chunk));
    if (failure) throw failure;
  }
  parser.write(decoder.end());
  parser.close();
  if (failure) throw failure;
  if (!sawRoot) throw new OsmInputError(file, 'not an OSM XML file (no <osm> element)');
}
