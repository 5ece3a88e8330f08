import { emptyBits, hasBit, setBit } from '../network/bits.ts';

/**
 * Changes to a loaded graph that come and go without a rebuild: today, what accepted road reports
 * do to routing (core/report-avoidances.ts). The costing applies an overlay on top of the
 * graph's own costs; every effect only raises a cost (an edge impassable, an edge dearer, a turn
 * forbidden), so the landmark bounds computed without it stay valid and routes stay optimal.
 *
 * Each effect holds until a local wall-clock minute (core/local-time.ts), Infinity when it has no
 * end: a temporary closure stops applying to departures after its end.
 */

/** Multiplier on an unsafe edge's cost. */
export const UNSAFE_FACTOR = { supersafe: 3, direct: 1.5 } as const;

export interface OverlayEffectSource {
  /** Who asked for the effect, e.g. `report:<id>`. */
  readonly id: string;
  readonly kind: 'closed' | 'one_way' | 'no_manoeuvre' | 'unsafe';
  /** Local wall-clock minute the effect ends; Infinity for none. */
  readonly untilMinute: number;
}

interface EdgeEffects {
  blockedUntil: number;
  unsafeUntil: number;
  /** Entering this edge from another edge at `node` is forbidden until `until`. */
  noEntry: { node: number; until: number }[];
}

export class RouteOverlay {
  /** Edges with any effect, as bits (network/bits.ts): the one check on the search's hot path. */
  readonly marked: Uint32Array;
  private readonly effects = new Map<number, EdgeEffects>();
  /** What each effect came from, per edge, for disruptions. */
  readonly sources = new Map<number, OverlayEffectSource[]>();

  constructor(readonly edgeCount: number) {
    this.marked = emptyBits(edgeCount);
  }

  get size(): number {
    return this.effects.size;
  }

  private effectsOf(edge: number, source: OverlayEffectSource): EdgeEffects {
    setBit(this.marked, edge);
    const list = this.sources.get(edge) ?? [];
    if (!list.some((existing) => existing.id === source.id)) list.push(source);
    this.sources.set(edge, list);
    let effects = this.effects.get(edge);
    if (!effects) {
      effects = { blockedUntil: -Infinity, unsafeUntil: -Infinity, noEntry: [] };
      this.effects.set(edge, effects);
    }
    return effects;
  }

  /** The edge may not be travelled (a closure; against a one-way). */
  block(edge: number, source: OverlayEffectSource): void {
    const effects = this.effectsOf(edge, source);
    effects.blockedUntil = Math.max(effects.blockedUntil, source.untilMinute);
  }

  /** The edge is a hazard: it costs more (more for supersafe). */
  markUnsafe(edge: number, source: OverlayEffectSource): void {
    const effects = this.effectsOf(edge, source);
    effects.unsafeUntil = Math.max(effects.unsafeUntil, source.untilMinute);
  }

  /** The edge may not be entered from another edge at `node` (the turn onto it does not exist). */
  forbidEntry(edge: number, node: number, source: OverlayEffectSource): void {
    this.effectsOf(edge, source).noEntry.push({ node, until: source.untilMinute });
  }

  /** Multiplier on the edge's cost at a departure minute: 1, a hazard factor, or Infinity. */
  edgeFactor(edge: number, minute: number, supersafe: boolean): number {
    if (!hasBit(this.marked, edge)) return 1;
    const effects = this.effects.get(edge)!;
    if (minute < effects.blockedUntil) return Infinity;
    if (minute < effects.unsafeUntil) return supersafe ? UNSAFE_FACTOR.supersafe : UNSAFE_FACTOR.direct;
    return 1;
  }

  /** Whether any effect touches the edge (a cheap test before the others). */
  marks(edge: number): boolean {
    return hasBit(this.marked, edge);
  }

  /** Whether arriving at `node` and going on along `to` is forbidden at a departure minute. */
  forbidsEntry(to: number, node: number, minute: number): boolean {
    if (!hasBit(this.marked, to)) return false;
    return this.effects.get(to)!.noEntry.some((entry) => entry.node === node && minute < entry.until);
  }
}
