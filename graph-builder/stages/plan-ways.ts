import {
  CLOSURE_CONTINUES, CLOSURE_CYCLING, CLOSURE_DATED, CLOSURE_OUTSIDE_WINDOW, CLOSURE_WALKING, EDGE_CONTRAFLOW, EDGE_CYCLE_ROUTE,
  EDGE_CYCLING, EDGE_DISMOUNT, EDGE_LINK, EDGE_LIT_SHIFT, EDGE_REVERSED, EDGE_ROAD_CLASS_SHIFT, EDGE_ROADWORKS, EDGE_ROUNDABOUT,
  EDGE_STEPS, EDGE_STRESS_SHIFT, EDGE_SURFACE_SHIFT, EDGE_WALK_KIND_SHIFT, EDGE_WALKING,
} from '../../core/graph/flags.ts';
import { Growable } from '../growable.ts';
import { routeMembershipRule } from '../tag-rules/safety.ts';
import type { WayAttributes } from '../tag-rules/way.ts';
import type { TimeWindowCompiler } from '../time-windows.ts';
import type { Warnings } from '../warnings.ts';
import type { StringTable } from '../writer.ts';
import type { CollectedWays, RouteRelation } from './read/collect.ts';

/**
 * Stage `plan-ways`: what each kept way contributes beyond its own tags. Membership of cycle and
 * walking route relations (a superroute's stages included), its time rules compiled into shared
 * closure records, and from those the edge flags of its two directions.
 */

/** The route relations a way is a member of. */
export interface WayRouteMembership {
  /** Names of the cycle routes the way is on. */
  readonly names: ReadonlySet<string>;
  readonly cycle: boolean;
  readonly foot: boolean;
}

export interface ClosureRecords {
  readonly window: Uint16Array;
  readonly flags: Uint8Array;
  readonly source: Uint32Array;
}

export interface PlanWaysInput {
  readonly ways: CollectedWays;
  readonly wayKept: Uint8Array;
  readonly routes: ReadonlyMap<number, RouteRelation>;
  readonly strings: StringTable;
  readonly windows: TimeWindowCompiler;
  readonly warnings: Warnings;
}

export interface WayPlans {
  /** Edge flags of each way's forward and backward direction (0 for ways not kept). */
  readonly forwardFlags: Uint32Array;
  readonly backwardFlags: Uint32Array;
  /** Closure of each way's edges: 1 + index of its first record, 0 for none. */
  readonly closure: Uint16Array;
  /** Route relations by way index (collected order). */
  readonly routes: ReadonlyMap<number, WayRouteMembership>;
  readonly closureRecords: ClosureRecords;
  /** Ways with at least one time rule. */
  readonly closedWays: number;
}

export function planWays({ ways, wayKept, routes, strings, windows, warnings }: PlanWaysInput): WayPlans {
  const memberships = routeMemberships(ways, routes);
  const closures = new ClosureTable(warnings);
  const forwardFlags = new Uint32Array(ways.count);
  const backwardFlags = new Uint32Array(ways.count);
  const closure = new Uint16Array(ways.count);
  for (let w = 0; w < ways.count; w++) {
    if (!wayKept[w]) continue;
    const attributes = ways.attributes[ways.attributeIndex[w]!]!;
    const access = { cyclingForward: attributes.forward.cycling, cyclingBackward: attributes.backward.cycling, walking: attributes.walking };
    const records: ClosureRecord[] = [];
    for (const rule of attributes.timeRules) {
      const window = windows.compile(rule.condition, 'conditional tags with an unparseable time condition (ignored)');
      if (window === null) {
        if (rule.grantsAccess && rule.cycling) access.cyclingForward = access.cyclingBackward = false;
        if (rule.grantsAccess && rule.walking) access.walking = false;
        continue;
      }
      const flags = (rule.cycling ? CLOSURE_CYCLING : 0) | (rule.walking ? CLOSURE_WALKING : 0)
        | (rule.outsideWindow ? CLOSURE_OUTSIDE_WINDOW : 0) | (windows.windows[window]!.dated ? CLOSURE_DATED : 0);
      records.push({ window, flags, source: strings.intern(rule.source) });
    }
    closure[w] = closures.closureOf(records);
    const membership = memberships.get(w);
    const onRoute = { cycle: attributes.signedRoute || membership?.cycle === true, foot: membership?.foot === true };
    forwardFlags[w] = directionFlags(attributes, access, onRoute, true);
    backwardFlags[w] = directionFlags(attributes, access, onRoute, false);
  }
  return { forwardFlags, backwardFlags, closure, routes: memberships, closureRecords: closures.records(), closedWays: closures.closedWays };
}

/** The names of every cycle route way `w` is on: its own route tags and the relations it is a member of. */
export function routeNamesOfWay(ways: CollectedWays, memberships: ReadonlyMap<number, WayRouteMembership>, w: number): ReadonlySet<string> {
  return new Set([...ways.attributes[ways.attributeIndex[w]!]!.routeNames, ...(memberships.get(w)?.names ?? [])]);
}

/** Route relations by way index; ways of member relations (a superroute's stages) carry the parent's name too. */
function routeMemberships(ways: CollectedWays, routes: ReadonlyMap<number, RouteRelation>): Map<number, WayRouteMembership> {
  const memberships = new Map<number, { names: Set<string>; cycle: boolean; foot: boolean }>();
  const addRoute = (wayId: number, name: string | null, kind: 'bicycle' | 'foot'): void => {
    const w = ways.index.get(wayId);
    if (w < 0) return;
    let entry = memberships.get(w);
    if (!entry) {
      entry = { names: new Set(), cycle: false, foot: false };
      memberships.set(w, entry);
    }
    if (kind === 'bicycle') {
      entry.cycle = true;
      if (name) entry.names.add(name);
    } else entry.foot = true;
  };
  for (const route of routes.values()) {
    const visited = new Set<number>();
    const walk = (relation: RouteRelation, depth: number): void => {
      for (const wayId of relation.ways) addRoute(wayId, route.name, route.kind);
      if (depth >= 4) return;
      for (const child of relation.relations) {
        const childRoute = routes.get(child);
        if (childRoute && !visited.has(child)) {
          visited.add(child);
          walk(childRoute, depth + 1);
        }
      }
    };
    walk(route, 0);
  }
  return memberships;
}

function directionFlags(
  a: WayAttributes,
  access: { readonly cyclingForward: boolean; readonly cyclingBackward: boolean; readonly walking: boolean },
  onRoute: { readonly cycle: boolean; readonly foot: boolean },
  forward: boolean,
): number {
  const shared = (a.lit << EDGE_LIT_SHIFT) | (a.surfacePenalty << EDGE_SURFACE_SHIFT) | (a.roadworks ? EDGE_ROADWORKS : 0)
    | (a.walkKind << EDGE_WALK_KIND_SHIFT) | (a.steps ? EDGE_STEPS : 0) | (a.roundabout ? EDGE_ROUNDABOUT : 0)
    | (a.roadClass << EDGE_ROAD_CLASS_SHIFT) | (a.link ? EDGE_LINK : 0) | (onRoute.cycle ? EDGE_CYCLE_ROUTE : 0)
    | (access.walking ? EDGE_WALKING : 0);
  const d = forward ? a.forward : a.backward;
  const cycling = forward ? access.cyclingForward : access.cyclingBackward;
  const safety = routeMembershipRule(d.safety, a.kind, onRoute.cycle, onRoute.foot, a.pedestriansKeptApart);
  return shared | safety | (cycling ? EDGE_CYCLING | (d.stress << EDGE_STRESS_SHIFT) : 0) | (cycling && d.dismount ? EDGE_DISMOUNT : 0)
    | (cycling && d.contraflow ? EDGE_CONTRAFLOW : 0) | (forward ? 0 : EDGE_REVERSED);
}

interface ClosureRecord {
  readonly window: number;
  readonly flags: number;
  readonly source: number;
}

/** Closure records, each distinct list of a way's records stored once. */
class ClosureTable {
  private readonly window = new Growable(Uint16Array);
  private readonly flags = new Growable(Uint8Array);
  private readonly source = new Growable(Uint32Array);
  private readonly groups = new Map<string, number>();
  closedWays = 0;

  constructor(private readonly warnings: Warnings) {}

  /** The closure value for a way's edges with these records: 1 + the first record's index, 0 for none. */
  closureOf(records: readonly ClosureRecord[]): number {
    if (records.length === 0) return 0;
    this.closedWays++;
    const key = JSON.stringify(records);
    let start = this.groups.get(key);
    if (start === undefined) {
      start = this.window.length;
      records.forEach((record, i) => {
        this.window.push(record.window);
        this.flags.push(record.flags | (i < records.length - 1 ? CLOSURE_CONTINUES : 0));
        this.source.push(record.source);
      });
      this.groups.set(key, start);
    }
    if (start + 1 > 0xffff) {
      this.warnings.count('closures beyond the 65535 the format holds (dropped)');
      return 0;
    }
    return start + 1;
  }

  records(): ClosureRecords {
    return { window: this.window.toArray(), flags: this.flags.toArray(), source: this.source.toArray() };
  }
}
