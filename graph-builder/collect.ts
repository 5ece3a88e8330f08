import { parseOsmElevation } from './elevation-sources.ts';
import { Growable } from './growable.ts';
import { IdIndex } from './id-index.ts';
import { nodeControlRule, type NodeControl } from './junction-control-tags.ts';
import { readOsmFile, type ReadProgress } from './osm/reader.ts';
import type { Tags } from './osm/types.ts';
import { parseRestriction, type RestrictionSpec } from './restriction-relations.ts';
import { classifyWay, type RuleContext, type WayAttributes } from './tag-rules.ts';
import { Warnings } from './warnings.ts';
import type { StringTable } from './writer.ts';

/**
 * The two streaming passes over a city's extracts. Pass 1 keeps the routable ways (classified
 * straight away, so their tags are dropped) and the relations that matter (cycle and walking
 * routes, turn restrictions). Pass 2 keeps coordinates and control tags of the nodes those ways
 * use, and nothing else. Extracts are merged by OSM id: the first extract holding an id wins.
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
  /** Routable ways this extract added (not already read from an earlier one). */
  readonly newWays: number;
}

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
  const wayIndex = new IdIndex(1 << 14);
  /** Highway ways seen but in neither network, so a later extract's older copy stays out too. */
  const droppedWays = new IdIndex(1 << 12);
  const wayIds = new Growable(Float64Array);
  const nodeFirst = new Growable(Uint32Array);
  const nodeRefs = new Growable(Float64Array);
  const attributeIndexes = new Growable(Uint32Array);
  const nameIds = new Growable(Uint32Array);
  const refIds = new Growable(Uint32Array);
  const waySource = new Growable(Uint8Array);
  const attributes: WayAttributes[] = [];
  const attributeKeys = new Map<string, number>();
  const routes = new Map<number, RouteRelation>();
  const restrictions = new Map<number, RestrictionSpec>();
  const sources: SourceSummary[] = [];
  nodeFirst.push(0);

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
    const before = wayIds.length;
    let bytes = 0;
    await readOsmFile(path, {
      wayKey: 'highway',
      way(id, refs, tags) {
        if (wayIndex.has(id) || droppedWays.has(id) || refs.length < 2) return;
        const override = wayTagOverrides[String(id)];
        const attributeIndex = classifyCached(override ? { ...tags, ...override } : tags);
        if (attributeIndex === null) {
          // The earlier extract's version wins even when it takes the way out of both networks
          // (bicycle=no on a road with separate pavements): an older copy elsewhere must not bring it back.
          droppedWays.intern(id);
          return;
        }
        wayIndex.intern(id);
        wayIds.push(id);
        for (const ref of refs) nodeRefs.push(ref);
        nodeFirst.push(nodeRefs.length);
        nameIds.push(strings.intern(tags.name?.trim() ?? ''));
        refIds.push(strings.intern(tags.ref?.trim() ?? ''));
        attributeIndexes.push(attributeIndex);
        waySource.push(sourceIndex);
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
    sources.push({ name: sourceName(path), path, bytes, newWays: wayIds.length - before });
  }

  const nodeIndex = new IdIndex(nodeRefs.length);
  const refs = nodeRefs.toArray();
  for (let i = 0; i < refs.length; i++) nodeIndex.intern(refs[i]!);
  const lonE7 = new Int32Array(nodeIndex.size);
  const latE7 = new Int32Array(nodeIndex.size);
  const present = new Uint8Array(nodeIndex.size);
  const controls = new Map<number, NodeControl>();
  const osmElevation = new Map<number, number>();
  for (const path of paths) {
    await readOsmFile(path, {
      nodeFilter: (id) => nodeIndex.has(id),
      node(id, lon, lat, tags) {
        const dense = nodeIndex.get(id);
        if (present[dense]) return;
        present[dense] = 1;
        lonE7[dense] = lon;
        latE7[dense] = lat;
        if (!tags) return;
        const control = nodeControlRule(tags);
        if (control) controls.set(dense, control);
        const elevation = parseOsmElevation(tags.ele);
        if (!Number.isNaN(elevation)) osmElevation.set(dense, elevation);
      },
    }, (p) => onProgress?.('nodes', p));
  }

  return {
    ways: {
      count: wayIds.length,
      ids: wayIds.toArray(),
      nodeFirst: nodeFirst.toArray(),
      nodeRefs: refs,
      attributeIndex: attributeIndexes.toArray(),
      attributes,
      nameIds: nameIds.toArray(),
      refIds: refIds.toArray(),
      source: waySource.toArray(),
      index: wayIndex,
    },
    nodes: { index: nodeIndex, lonE7, latE7, present, controls, osmElevation },
    routes,
    restrictions: [...restrictions.values()],
    sources,
  };
}

/** The extract's folder and file name, e.g. `adnathanail-broute/central-london-latest.osm.pbf`. */
export const sourceName = (path: string): string => path.split('/').slice(-2).join('/');
