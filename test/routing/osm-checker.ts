import { join } from 'node:path';
import type { CityId } from '../../core/cities/index.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import type { Profile } from '../../core/graph/profiles.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';
import { graphRecipes } from '../../graph-builder/city-recipes.ts';
import { readOsmFile, type RelationMember, type Tags } from '../../graph-builder/osm/reader.ts';
import type { RoutedPath } from '../../core/routing/path/path.ts';

/**
 * An independent judge of routes, in the spirit of an outside route checker: it reads the city's
 * OpenStreetMap extracts itself and judges a route by the raw tags of the ways and nodes it
 * passes, with its own small rules, never by the flags the graph builder derived. It knows the
 * graph only as a map from edges to OSM way ids and node coordinates (which the builder copies
 * verbatim).
 */

interface Restriction {
  id: number;
  kind: 'no' | 'only';
  from: number;
  to: number;
  viaNode: string | null;
  viaWays: number[];
}

export interface Violation {
  rule: string;
  detail: string;
}

const key = (lonE7: number, latE7: number): string => `${lonE7},${latE7}`;
const ALLOWED = new Set(['yes', 'designated', 'permissive', 'destination', 'customers', 'delivery', 'official', 'public']);
const DENIED = new Set(['no', 'private', 'use_sidepath', 'agricultural', 'forestry', 'permit', 'residents', 'military', 'emergency']);

/** The first of the keys present on the element decides. */
function verdict(tags: Tags, keys: readonly string[]): 'allowed' | 'denied' | 'dismount' | undefined {
  for (const name of keys) {
    const value = tags[name]?.split(';')[0]?.trim();
    if (value === undefined) continue;
    if (value === 'dismount') return 'dismount';
    if (DENIED.has(value)) return 'denied';
    if (ALLOWED.has(value)) return 'allowed';
  }
  return undefined;
}

export class OsmChecker {
  private readonly wayTags = new Map<number, Tags>();
  private readonly barrierNodes = new Map<string, Tags>();
  private readonly restrictions: Restriction[] = [];
  private readonly cycleRouteNames = new Map<number, Set<string>>();
  private readonly nodeKeys = new Map<number, string>();

  static async load(city: CityId): Promise<OsmChecker> {
    const checker = new OsmChecker();
    for (const extract of graphRecipes[city].extracts) {
      await checker.read(join(sharedDataPath(), extract));
    }
    return checker;
  }

  private async read(path: string): Promise<void> {
    const relations: { id: number; members: readonly RelationMember[]; tags: Tags }[] = [];
    await readOsmFile(path, {
      node: (id, lonE7, latE7, tags) => {
        if (!this.nodeKeys.has(id)) this.nodeKeys.set(id, key(lonE7, latE7));
        if (tags?.barrier && !this.barrierNodes.has(key(lonE7, latE7))) this.barrierNodes.set(key(lonE7, latE7), tags);
      },
      way: (id, _refs, tags) => {
        if (tags.highway && !this.wayTags.has(id)) this.wayTags.set(id, tags);
      },
      relation: (id, members, tags) => relations.push({ id, members, tags }),
    });
    for (const { id, members, tags } of relations) {
      if (tags.type === 'route' && tags.route === 'bicycle' && tags.name) {
        for (const member of members) if (member.type === 'way') this.cycleRouteNames.set(member.ref, (this.cycleRouteNames.get(member.ref) ?? new Set()).add(tags.name));
      }
      if (tags.type !== 'restriction') continue;
      // Time-limited restrictions are judged by their own tests at known times; other vehicles' do not bind bicycles.
      if (tags['restriction:conditional'] || tags.day_on || tags.hour_on) continue;
      if ((tags.except ?? '').split(';').includes('bicycle')) continue;
      const value = tags['restriction:bicycle'] ?? tags.restriction;
      if (!value || !/^(no|only)_/.test(value)) continue;
      const from = members.filter((m) => m.type === 'way' && m.role === 'from');
      const to = members.filter((m) => m.type === 'way' && m.role === 'to');
      const via = members.filter((m) => m.role === 'via');
      if (from.length !== 1 || to.length !== 1 || via.length === 0) continue;
      const viaNodeId = via[0]!.type === 'node' ? via[0]!.ref : null;
      this.restrictions.push({
        id,
        kind: value.startsWith('no_') ? 'no' : 'only',
        from: from[0]!.ref,
        to: to[0]!.ref,
        viaNode: viaNodeId === null ? null : (this.nodeKeys.get(viaNodeId) ?? `missing:${viaNodeId}`),
        viaWays: via.filter((m) => m.type === 'way').map((m) => m.ref),
      });
    }
  }

  /** Whether a profile may use a way at all, by its raw tags. */
  private wayAllows(way: number, profile: Profile): boolean {
    const tags = this.wayTags.get(way);
    if (!tags) return true;
    const decided = profile === 'cycling' ? verdict(tags, ['bicycle', 'vehicle', 'access']) : verdict(tags, ['foot', 'access']);
    return decided !== 'denied' || Boolean(tags[`${profile === 'cycling' ? 'bicycle' : 'foot'}:conditional`] ?? tags['access:conditional']);
  }

  /** Whether a barrier node lets a profile through, by its raw tags. */
  private barrierAllows(tags: Tags, profile: Profile): boolean {
    const own = profile === 'cycling' ? tags.bicycle : tags.foot;
    if (own !== undefined) return !DENIED.has(own);
    if (tags.locked === 'yes' || DENIED.has(tags.access ?? '')) return false;
    if (profile === 'cycling') return !['stile', 'turnstile', 'full-height_turnstile', 'fence', 'wall'].includes(tags.barrier ?? '');
    return !['fence', 'wall'].includes(tags.barrier ?? '');
  }

  /** Coordinates (1e-7 degrees, `lon,lat`) of the barrier nodes whose raw tags close them to a profile. */
  closedBarriers(profile: Profile): string[] {
    return [...this.barrierNodes].filter(([, tags]) => !this.barrierAllows(tags, profile)).map(([at]) => at);
  }

  /** Spec 1.2.4, as this judge reads it: two cycle paths of their own that are the same way, name or signed route. */
  private sameCycleway(from: number, to: number): boolean {
    const a = this.wayTags.get(from);
    const b = this.wayTags.get(to);
    const cyclePath = (tags: Tags | undefined) => tags?.highway === 'cycleway' || (tags?.highway === 'path' && tags.bicycle === 'designated');
    if (!cyclePath(a) || !cyclePath(b)) return false;
    if (from === to || (a!.name && a!.name === b!.name)) return true;
    return [...(this.cycleRouteNames.get(from) ?? [])].some((name) => this.cycleRouteNames.get(to)?.has(name));
  }

  /** Everything wrong with one route, in the profile it was planned for. */
  judge(network: RoutingNetwork, path: RoutedPath, profile: Profile): Violation[] {
    const graph = network.graph;
    const violations: Violation[] = [];
    const edges = path.edges.map((edge) => edge.edge);
    const wayOf = (edge: number) => graph.segmentWayId[graph.edgeSegment[edge]!]!;
    const nodeKey = (node: number) => key(graph.nodeCoords[2 * node]!, graph.nodeCoords[2 * node + 1]!);

    path.edges.forEach((edge) => {
      const way = wayOf(edge.edge);
      const tags = this.wayTags.get(way) ?? {};
      if (!this.wayAllows(way, profile)) violations.push({ rule: 'access', detail: `way ${way} (${JSON.stringify(tags)}) denies ${profile}` });
      if (profile !== 'cycling') return;
      const bicycleTagged = tags.bicycle !== undefined || tags.vehicle !== undefined;
      const beside = tags.footway ?? tags.path;
      if ((tags.highway === 'footway' || tags.highway === 'path') && ['sidewalk', 'crossing', 'traffic_island'].includes(beside ?? '') && !bicycleTagged && edge.length > 0.5) {
        violations.push({ rule: 'pavement', detail: `way ${way} (footway=${beside}) used by a cycling route` });
      }
      const footOnly = ['footway', 'pedestrian', 'steps', 'bridleway', 'corridor'].includes(tags.highway ?? '');
      const rideable = ['yes', 'designated', 'permissive'].includes(tags.bicycle ?? '');
      if ((footOnly && !rideable) || tags.bicycle === 'dismount') {
        if (!edge.pushed && edge.length > 0.5) violations.push({ rule: 'push', detail: `way ${way} (highway=${tags.highway}) presented as ridden` });
      }
    });

    for (let i = 1; i < edges.length; i++) {
      const junction = nodeKey(graph.edgeHead[edges[i - 1]!]!);
      const barrier = this.barrierNodes.get(junction);
      if (barrier && !this.barrierAllows(barrier, profile)) violations.push({ rule: 'barrier', detail: `${JSON.stringify(barrier)} passed at ${junction}` });
    }
    if (profile === 'cycling') violations.push(...this.restrictionViolations(edges.map(wayOf), edges.map((edge) => nodeKey(graph.edgeHead[edge]!))));
    return violations;
  }

  /** `ways[i]` is the way of the route's i-th edge, `heads[i]` the node it arrives at. */
  private restrictionViolations(ways: number[], heads: string[]): Violation[] {
    const violations: Violation[] = [];
    for (const restriction of this.restrictions) {
      if (restriction.kind === 'no' && this.sameCycleway(restriction.from, restriction.to)) continue;
      for (let i = 0; i + 1 < ways.length; i++) {
        if (ways[i] !== restriction.from) continue;
        if (restriction.viaNode !== null) {
          if (heads[i] !== restriction.viaNode) continue;
          const next = ways[i + 1]!;
          if (restriction.kind === 'no' && next === restriction.to) violations.push({ rule: 'restriction', detail: `relation ${restriction.id} (no, via node)` });
          if (restriction.kind === 'only' && next !== restriction.to) violations.push({ rule: 'restriction', detail: `relation ${restriction.id} (only, via node) left on way ${next}` });
          continue;
        }
        // Via ways: the route leaves the from way onto the via ways, in any order, then onto the to way.
        let j = i + 1;
        while (j < ways.length && restriction.viaWays.includes(ways[j]!)) j++;
        if (j === i + 1 || j >= ways.length) continue;
        if (restriction.kind === 'no' && ways[j] === restriction.to) violations.push({ rule: 'restriction', detail: `relation ${restriction.id} (no, via way)` });
        if (restriction.kind === 'only' && ways[j] !== restriction.to) violations.push({ rule: 'restriction', detail: `relation ${restriction.id} (only, via way) left on way ${ways[j]}` });
      }
    }
    return violations;
  }
}
