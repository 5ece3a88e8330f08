import { CONTROL_ALL_WAY_STOP, CONTROL_GIVE_WAY, CONTROL_TRAFFIC_SIGNALS, CONTROL_TWO_WAY_STOP, EDGE_CONTRAFLOW, EDGE_CYCLE_ROUTE, EDGE_CYCLING, EDGE_DISMOUNT, EDGE_ROADWORKS, EDGE_WALKING, LIT_ASSUMED, LIT_NO, LIT_YES, SAFETY_CLASSES, WALK_CARRIAGEWAY, WALK_CROSSING, WALK_PATH, WALK_PAVEMENT, arrivalControlOf, litOf, safetyClassOf, surfacePenaltyOf, trafficStressOf, walkKindOf, type SafetyClass } from '../core/graph/flags.ts';
import { type GraphSections } from '../core/graph/layout.ts';

/**
 * Figures for the build report, computed from the finished arrays (what the router will see).
 * Lengths are street kilometres: a two-way street counts once, split between its two
 * directions' classes when they differ. Cycling figures cover what can be ridden; stretches where
 * the bike may only be pushed are counted separately.
 */

export interface SpotCheck {
  readonly label: string;
  /** Street name (exact) or cycle route name (exact) to look for. */
  readonly name?: string;
  readonly route?: string;
  /** What someone who knows the street expects, shown beside the result. */
  readonly expect: string;
}

export interface SpotCheckResult {
  readonly label: string;
  readonly expect: string;
  readonly km: number;
  readonly cyclingKmByClass: Readonly<Record<SafetyClass, number>>;
  readonly litShare: number | null;
}

export interface GraphStatistics {
  readonly cyclingKm: number;
  readonly cyclingKmByClass: Readonly<Record<SafetyClass, number>>;
  /** Rideable km per Level of Traffic Stress, 1 to 4 (index 0: not rated). */
  readonly cyclingKmByStress: readonly number[];
  readonly walkingKm: number;
  readonly walkingKmByKind: Readonly<Record<'carriageway' | 'pavement' | 'path' | 'crossing', number>>;
  /** Share of cycling km lit: tagged lit=yes or an untagged street assumed lit (LIT_ASSUMED). */
  readonly litShare: number;
  /** Share of cycling km tagged lit=yes, and share with any lit tag. */
  readonly litTaggedYesShare: number;
  readonly litTaggedShare: number;
  readonly cycleRouteKm: number;
  readonly dismountKm: number;
  readonly contraflowKm: number;
  readonly roadworksKm: number;
  readonly roughKm: number;
  readonly approachesWith: Readonly<Record<'traffic_signal' | 'stop_sign' | 'two_way_stop' | 'give_way', number>>;
  /**
   * Rideable km by the grade of each stretch between two nodes (its climb or descent, the larger,
   * over its length), in the bands of GRADE_BANDS; all in the first band where no model gives heights.
   */
  readonly rideableKmByGrade: readonly number[];
}

/** Upper limits of the grade bands the report counts rideable km in (the last band has none). */
export const GRADE_BANDS = [0.02, 0.05, 0.08, 0.12] as const;

type Sections = Pick<GraphSections, 'edgeFlags' | 'edgeLength' | 'segmentForwardEdge' | 'segmentBackwardEdge' | 'segmentName' | 'segmentRouteSet' | 'routeSetFirst' | 'routeSetMembers' | 'segmentAscent' | 'segmentDescent'>;

const emptyByClass = (): Record<SafetyClass, number> => ({ quiet: 0, cycleway: 0, moderate: 0, busy: 0, shared: 0 });

function accumulate(sections: Sections, include: (segment: number) => boolean): { km: number; byClass: Record<SafetyClass, number>; byStress: number[]; lit: number; litYes: number; litTagged: number } {
  const byClass = emptyByClass();
  const byStress = [0, 0, 0, 0, 0];
  let metres = 0;
  let litAny = 0;
  let litYes = 0;
  let litTagged = 0;
  for (let s = 0; s < sections.segmentForwardEdge.length; s++) {
    if (!include(s)) continue;
    // Push-only stretches (footways, steps) are reported apart, as dismountKm.
    const cyclingEdges = [sections.segmentForwardEdge[s]!, sections.segmentBackwardEdge[s]!]
      .filter((e) => e >= 0 && sections.edgeFlags[e]! & EDGE_CYCLING && !(sections.edgeFlags[e]! & EDGE_DISMOUNT));
    if (cyclingEdges.length === 0) continue;
    const length = sections.edgeLength[cyclingEdges[0]!]!;
    metres += length;
    for (const e of cyclingEdges) {
      byClass[SAFETY_CLASSES[safetyClassOf(sections.edgeFlags[e]!)]!] += length / cyclingEdges.length;
      byStress[trafficStressOf(sections.edgeFlags[e]!)]! += length / cyclingEdges.length;
    }
    const lit = litOf(sections.edgeFlags[cyclingEdges[0]!]!);
    if (lit === LIT_YES || lit === LIT_ASSUMED) litAny += length;
    if (lit === LIT_YES) litYes += length;
    if (lit === LIT_YES || lit === LIT_NO) litTagged += length;
  }
  const km = (value: number): number => Math.round(value) / 1000;
  for (const key of Object.keys(byClass) as SafetyClass[]) byClass[key] = km(byClass[key]);
  return { km: km(metres), byClass, byStress: byStress.map(km), lit: km(litAny), litYes: km(litYes), litTagged: km(litTagged) };
}

export function graphStatistics(sections: Sections): GraphStatistics {
  const cycling = accumulate(sections, () => true);
  const walkingKmByKind = { carriageway: 0, pavement: 0, path: 0, crossing: 0 };
  let walkingMetres = 0;
  let cycleRoute = 0;
  let dismount = 0;
  let contraflow = 0;
  let roadworks = 0;
  let rough = 0;
  const byGrade = new Array<number>(GRADE_BANDS.length + 1).fill(0);
  for (let s = 0; s < sections.segmentForwardEdge.length; s++) {
    const edges = [sections.segmentForwardEdge[s]!, sections.segmentBackwardEdge[s]!].filter((e) => e >= 0);
    const flags = edges.map((e) => sections.edgeFlags[e]!);
    const length = sections.edgeLength[edges[0]!]!;
    if (flags.some((f) => f & EDGE_WALKING)) {
      walkingMetres += length;
      const kind = walkKindOf(flags[0]!);
      const key = kind === WALK_CARRIAGEWAY ? 'carriageway' : kind === WALK_PAVEMENT ? 'pavement' : kind === WALK_PATH ? 'path' : kind === WALK_CROSSING ? 'crossing' : 'path';
      walkingKmByKind[key] += length / 1000;
    }
    if (!flags.some((f) => f & EDGE_CYCLING)) continue;
    if (flags[0]! & EDGE_CYCLE_ROUTE) cycleRoute += length;
    if (flags.every((f) => !(f & EDGE_CYCLING) || f & EDGE_DISMOUNT)) dismount += length;
    if (flags.some((f) => f & EDGE_CONTRAFLOW)) contraflow += length;
    if (flags[0]! & EDGE_ROADWORKS) roadworks += length;
    if (surfacePenaltyOf(flags[0]!) >= 2) rough += length;
    if (flags.some((f) => f & EDGE_CYCLING && !(f & EDGE_DISMOUNT)) && length > 0) {
      const grade = Math.max(sections.segmentAscent[s]!, sections.segmentDescent[s]!) / 10 / length;
      const band = GRADE_BANDS.findIndex((limit) => grade < limit);
      byGrade[band < 0 ? GRADE_BANDS.length : band]! += length;
    }
  }
  const approachesWith = { traffic_signal: 0, stop_sign: 0, two_way_stop: 0, give_way: 0 };
  for (let e = 0; e < sections.edgeFlags.length; e++) {
    const control = arrivalControlOf(sections.edgeFlags[e]!);
    if (control === CONTROL_TRAFFIC_SIGNALS) approachesWith.traffic_signal++;
    else if (control === CONTROL_ALL_WAY_STOP) approachesWith.stop_sign++;
    else if (control === CONTROL_TWO_WAY_STOP) approachesWith.two_way_stop++;
    else if (control === CONTROL_GIVE_WAY) approachesWith.give_way++;
  }
  const round = (metres: number): number => Math.round(metres) / 1000;
  for (const key of Object.keys(walkingKmByKind) as (keyof typeof walkingKmByKind)[]) walkingKmByKind[key] = Math.round(walkingKmByKind[key] * 1000) / 1000;
  return {
    cyclingKm: cycling.km,
    cyclingKmByClass: cycling.byClass,
    cyclingKmByStress: cycling.byStress,
    walkingKm: round(walkingMetres),
    walkingKmByKind,
    litShare: cycling.km > 0 ? cycling.lit / cycling.km : 0,
    litTaggedYesShare: cycling.km > 0 ? cycling.litYes / cycling.km : 0,
    litTaggedShare: cycling.km > 0 ? cycling.litTagged / cycling.km : 0,
    cycleRouteKm: round(cycleRoute),
    dismountKm: round(dismount),
    contraflowKm: round(contraflow),
    roadworksKm: round(roadworks),
    roughKm: round(rough),
    approachesWith,
    rideableKmByGrade: byGrade.map(round),
  };
}

export function spotCheck(sections: Sections, strings: readonly string[], check: SpotCheck): SpotCheckResult {
  const nameId = check.name !== undefined ? strings.indexOf(check.name) : -1;
  const routeId = check.route !== undefined ? strings.indexOf(check.route) : -1;
  const onRoute = (s: number): boolean => {
    const set = sections.segmentRouteSet[s]!;
    for (let i = sections.routeSetFirst[set]!; i < sections.routeSetFirst[set + 1]!; i++) if (sections.routeSetMembers[i] === routeId) return true;
    return false;
  };
  const result = accumulate(sections, (s) => (nameId > 0 && sections.segmentName[s] === nameId) || (routeId > 0 && onRoute(s)));
  return {
    label: check.label,
    expect: check.expect,
    km: result.km,
    cyclingKmByClass: result.byClass,
    litShare: result.km > 0 ? result.lit / result.km : null,
  };
}
