import { Growable } from '../../growable.ts';
import { IdIndex } from '../../id-index.ts';
import { readOsmFile, type ReadProgress } from '../../osm/reader.ts';
import type { Tags } from '../../osm/types.ts';
import type { RuleContext } from '../../tag-rules/context.ts';
import { classifyWay, type WayAttributes } from '../../tag-rules/way.ts';
import { Warnings } from '../../warnings.ts';
import type { StringTable } from '../../writer.ts';
import { parseOsmElevation } from '../elevation/models.ts';
import { nodeControlRule, type NodeControl } from '../junction-control/controls.ts';
import { parseRestriction, type RestrictionSpec } from '../restrictions/relations.ts';

/**
 * The two streaming passes over a city's extracts. Pass 1 keeps the routable ways (classified
 * straight away, so their tags are dropped) and the relations that matter (cycle and walking
 * routes, turn restrictions). Pass 2 keeps coordinates and control tags of the nodes those ways
 * use, and nothing else. Extracts are merged by OSM id: where two hold the same way or node, the
 * newer version wins (`supersedes`); where either copy has no version (an extract with its
 * metadata stripped), the earlier extract in the city's list wins, so recipes list newest first.
 */

export interface RouteRelation {
  readonly kind: 'bicycle' | 'foot';
  /** The route's display name (name, else ref); null when it has neither. */
  readonly name: string | null;
  readonly ways: Set<number>;
  readonly relations: Set<number>;
}

export interface CollectedWays {
  readonly count: number;
  readonly ids: Float64Array;
  /** W+1 offsets into nodeRefs. */
  readonly nodeFirst: Uint32Array;
  /** OSM node ids of all ways, concatenated. */
  readonly nodeRefs: Float64Array;
  /** Index into `attributes` per way: ways with equal attributes share one object. */
  readonly attributeIndex: Uint32Array;
  readonly attributes: readonly WayAttributes[];
  readonly nameIds: Uint32Array;
  readonly refIds: Uint32Array;
  /** Index of the extract (in the city's list) each way was read from. */
  readonly source: Uint8Array;
  readonly index: IdIndex;
}

export interface CollectedNodes {
  /** OSM node id -> dense index, for every node a kept way uses. */
  readonly index: IdIndex;
  readonly lonE7: Int32Array;
  readonly latE7: Int32Array;
  /** 1 when the node was found in some extract. */
  readonly present: Uint8Array;
  readonly controls: ReadonlyMap<number, NodeControl>;
  readonly osmElevation: ReadonlyMap<number, number>;
}

export interface SourceSummary {
  readonly name: string;
  readonly path: string;
  readonly bytes: number;
  /** Routable ways taken from this extract (its copy won, or no other extract held the way). */
  readonly newWays: number;
}

/**
 * Whether a copy of an OSM element at `candidate` version replaces the copy already read at
 * `current`: only a known, higher version does. Version 0 means unknown (metadata stripped); then
 * the copy read first stays, which is why a city's extracts are listed newest first.
 */
export const supersedes = (candidate: number, current: number): boolean => candidate > 0 && current > 0 && candidate > current;

export interface Collected {
  readonly ways: CollectedWays;
  readonly nodes: CollectedNodes;
  readonly routes: ReadonlyMap<number, RouteRelation>;
  readonly restrictions: readonly RestrictionSpec[];
  readonly sources: readonly SourceSummary[];
}

/** Tag keys that never change how a way is classified (names are stored per way). */
const IGNORED_KEYS = /^(name|ref|alt_name|old_name|official_name|loc_name|short_name|int_name|name:.*|tiger:.*|source.*|note.*|fixme|FIXME|wikidata|wikipedia.*|check_date.*|description|created_by)$/;

/** The way's tags without names and notes, as a cache key. */
function tagSetKey(tags: Tags): string {
  let key = '';
  for (const name in tags) if (!IGNORED_KEYS.test(name)) key += `${name}\u0000${tags[name]}\u0001`;
  return key;
}

export type ProgressListener = (pass: 'ways' | 'nodes', progress: ReadProgress) => void;

const ROUTE_KINDS: Readonly<Record<string, 'bicycle' | 'foot'>> = { bicycle: 'bicycle', foot: 'foot', hiking: 'foot', walking: 'foot' };

function collectRoute(tags: Tags, members: readonly { type: string; ref: number }[], routes: Map<number, RouteRelation>, id: number): void {
  const isSuperroute = tags.type === 'superroute';
  const kind = ROUTE_KINDS[tags.route ?? ''];
  if ((tags.type !== 'route' && !isSuperroute) || !kind || tags.state === 'proposed') return;
  let route = routes.get(id);
  if (!route) {
    route = { kind, name: tags.name?.trim() || tags.ref?.trim() || null, ways: new Set(), relations: new Set() };
    routes.set(id, route);
  }
  // A relation cut by different extract boundaries lists different members: keep their union.
  for (const member of members) {
    if (member.type === 'way') route.ways.add(member.ref);
    else if (member.type === 'relation') route.relations.add(member.ref);
  }
}

export async function collectOsm(
  paths: readonly string[],
  context: RuleContext,
  strings: StringTable,
  onProgress?: ProgressListener,
  /** Tags laid over ways by OSM id before classification (accepted reports folded in). */
  wayTagOverrides: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): Promise<Collected> {
  const { warnings } = context;
  /** Every highway way seen in any extract -> its entry in `seenVersion` / `seenCopy`. */
  const seen = new IdIndex(1 << 14);
  const seenVersion = new Growable(Float64Array);
  /** The kept copy of each seen way, -1 where the winning version is in neither network. */
  const seenCopy = new Growable(Int32Array);
  const copies: WayCopies = {
    ids: new Growable(Float64Array), nodeFirst: new Growable(Uint32Array), nodeRefs: new Growable(Float64Array), attributeIndex: new Growable(Uint32Array),
    nameIds: new Growable(Uint32Array), refIds: new Growable(Uint32Array), source: new Growable(Uint8Array),
  };
  /** Copies replaced by a newer version from a later extract. */
  const superseded = new Growable(Uint8Array);
  const attributes: WayAttributes[] = [];
  const attributeKeys = new Map<string, number>();
  const routes = new Map<number, RouteRelation>();
  const restrictions = new Map<number, RestrictionSpec>();
  const sourceFiles: { name: string; path: string; bytes: number }[] = [];
  copies.nodeFirst.push(0);

  // Ways with the same tags (names aside) classify the same: most footways, sidewalks and
  // residential streets share a handful of tag sets, so classification runs once per set and its
  // warnings are replayed for every way that has it.
  const byTags = new Map<string, { index: number | null; warnings: Warnings }>();
  const classifyCached = (tags: Tags): number | null => {
    const key = tagSetKey(tags);
    let cached = byTags.get(key);
    if (cached === undefined) {
      const local = new Warnings();
      const classified = classifyWay(tags, { ...context, warnings: local });
      cached = { index: classified ? internAttributes({ ...classified, name: '', ref: '' }) : null, warnings: local };
      byTags.set(key, cached);
    }
    warnings.add(cached.warnings);
    return cached.index;
  };
  const internAttributes = (classified: WayAttributes): number => {
    const key = JSON.stringify(classified);
    let shared = attributeKeys.get(key);
    if (shared === undefined) {
      shared = attributes.length;
      attributes.push(classified);
      attributeKeys.set(key, shared);
    }
    return shared;
  };

  for (const [sourceIndex, path] of paths.entries()) {
    let bytes = 0;
    await readOsmFile(path, {
      wayKey: 'highway',
      way(id, refs, tags, version) {
        if (refs.length < 2) return;
        let entry = seen.get(id);
        if (entry >= 0) {
          if (!supersedes(version, seenVersion.get(entry))) return;
          const replaced = seenCopy.get(entry);
          if (replaced >= 0) superseded.set(replaced, 1);
        } else {
          entry = seen.intern(id);
          seenVersion.push(0);
          seenCopy.push(-1);
        }
        seenVersion.set(entry, version);
        const override = wayTagOverrides[String(id)];
        const attributeIndex = classifyCached(override ? { ...tags, ...override } : tags);
        // The winning version decides even when it takes the way out of both networks (bicycle=no
        // on a road with separate pavements): an older copy elsewhere must not bring it back.
        seenCopy.set(entry, attributeIndex === null ? -1 : copies.ids.length);
        if (attributeIndex === null) return;
        copies.ids.push(id);
        for (const ref of refs) copies.nodeRefs.push(ref);
        copies.nodeFirst.push(copies.nodeRefs.length);
        copies.nameIds.push(strings.intern(tags.name?.trim() ?? ''));
        copies.refIds.push(strings.intern(tags.ref?.trim() ?? ''));
        copies.attributeIndex.push(attributeIndex);
        copies.source.push(sourceIndex);
        superseded.push(0);
      },
      relation(id, members, tags) {
        if (tags.type === 'route' || tags.type === 'superroute') {
          collectRoute(tags, members, routes, id);
        } else if ((tags.type === 'restriction' || tags.type === 'restriction:bicycle') && !restrictions.has(id)) {
          // The old `type=restriction:bicycle` form carries the bicycle restriction in `restriction`.
          let restrictionTags = tags;
          if (tags.type === 'restriction:bicycle' && tags.restriction !== undefined) {
            const { restriction, ...rest } = tags;
            restrictionTags = { ...rest, 'restriction:bicycle': restriction };
          }
          const spec = parseRestriction(id, restrictionTags, members, warnings);
          if (spec) restrictions.set(id, spec);
        }
      },
    }, (progress) => {
      bytes = progress.totalBytes;
      onProgress?.('ways', progress);
    });
    sourceFiles.push({ name: sourceName(path), path, bytes });
  }
  const { wayIndex, wayIds, nodeFirst, nodeRefs, attributeIndexes, nameIds, refIds, waySource } = keptCopies(copies, superseded.toArray());
  const taken = new Uint32Array(paths.length);
  for (let w = 0; w < waySource.length; w++) taken[waySource[w]!]!++;
  const sources: SourceSummary[] = sourceFiles.map((file, index) => ({ ...file, newWays: taken[index]! }));

  const nodes = await collectNodes(paths, nodeRefs, onProgress);

  return {
    ways: {
      count: wayIds.length,
      ids: wayIds,
      nodeFirst,
      nodeRefs,
      attributeIndex: attributeIndexes,
      attributes,
      nameIds,
      refIds,
      source: waySource,
      index: wayIndex,
    },
    nodes,
    routes,
    restrictions: [...restrictions.values()],
    sources,
  };
}

/** Pass 2: coordinates and tags of the nodes the kept ways use, the newest version of each. */
async function collectNodes(paths: readonly string[], nodeRefs: Float64Array, onProgress?: ProgressListener): Promise<CollectedNodes> {
  const nodeIndex = new IdIndex(nodeRefs.length);
  for (let i = 0; i < nodeRefs.length; i++) nodeIndex.intern(nodeRefs[i]!);
  const lonE7 = new Int32Array(nodeIndex.size);
  const latE7 = new Int32Array(nodeIndex.size);
  const present = new Uint8Array(nodeIndex.size);
  const nodeVersion = new Float64Array(nodeIndex.size);
  const controls = new Map<number, NodeControl>();
  const osmElevation = new Map<number, number>();
  for (const path of paths) {
    await readOsmFile(path, {
      nodeFilter: (id) => nodeIndex.has(id),
      node(id, lon, lat, tags, version) {
        const dense = nodeIndex.get(id);
        if (present[dense] && !supersedes(version, nodeVersion[dense]!)) return;
        present[dense] = 1;
        nodeVersion[dense] = version;
        lonE7[dense] = lon;
        latE7[dense] = lat;
        controls.delete(dense);
        osmElevation.delete(dense);
        if (!tags) return;
        const control = nodeControlRule(tags);
        if (control) controls.set(dense, control);
        const elevation = parseOsmElevation(tags.ele);
        if (!Number.isNaN(elevation)) osmElevation.set(dense, elevation);
      },
    }, (p) => onProgress?.('nodes', p));
  }

  return { index: nodeIndex, lonE7, latE7, present, controls, osmElevation };
}

interface WayCopies {
  readonly ids: Growable<Float64Array>;
  readonly nodeFirst: Growable<Uint32Array>;
  readonly nodeRefs: Growable<Float64Array>;
  readonly attributeIndex: Growable<Uint32Array>;
  readonly nameIds: Growable<Uint32Array>;
  readonly refIds: Growable<Uint32Array>;
  readonly source: Growable<Uint8Array>;
}

/** The copies of ways that were not superseded, in reading order, and the index of their ids. */
function keptCopies(copies: WayCopies, superseded: Uint8Array) {
  const ids = copies.ids.toArray();
  const nodeFirst = copies.nodeFirst.toArray();
  const nodeRefs = copies.nodeRefs.toArray();
  const keep: number[] = [];
  let refCount = 0;
  for (let copy = 0; copy < ids.length; copy++) {
    if (superseded[copy]) continue;
    keep.push(copy);
    refCount += nodeFirst[copy + 1]! - nodeFirst[copy]!;
  }
  const all = keep.length === ids.length;
  const pick = <T extends Uint8Array | Uint32Array | Float64Array>(values: T): T => {
    if (all) return values;
    const kept = new (values.constructor as new (length: number) => T)(keep.length);
    keep.forEach((copy, w) => (kept[w] = values[copy]!));
    return kept;
  };
  const keptRefs = all ? nodeRefs : new Float64Array(refCount);
  const keptFirst = all ? nodeFirst : new Uint32Array(keep.length + 1);
  if (!all) {
    let at = 0;
    keep.forEach((copy, w) => {
      keptFirst[w] = at;
      keptRefs.set(nodeRefs.subarray(nodeFirst[copy]!, nodeFirst[copy + 1]!), at);
      at += nodeFirst[copy + 1]! - nodeFirst[copy]!;
    });
    keptFirst[keep.length] = at;
  }
  const wayIds = pick(ids);
  const wayIndex = new IdIndex(wayIds.length);
  for (let w = 0; w < wayIds.length; w++) wayIndex.intern(wayIds[w]!);
  return {
    wayIndex, wayIds, nodeFirst: keptFirst, nodeRefs: keptRefs,
    attributeIndexes: pick(copies.attributeIndex.toArray()), nameIds: pick(copies.nameIds.toArray()), refIds: pick(copies.refIds.toArray()), waySource: pick(copies.source.toArray()),
  };
}

/** The extract's folder and file name, e.g. `adnathanail-broute/central-london-latest.osm.pbf`. */
export const sourceName = (path: string): string => path.split('/').slice(-2).join('/');
