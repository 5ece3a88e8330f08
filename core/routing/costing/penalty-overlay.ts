import { setBit } from '../network/bits.ts';
import { RouteOverlay } from './overlay.ts';

/**
 * One query's own overlay for the penalty method of alternative routes (core/routing/planning/
 * alternatives.ts): the graph's report overlay it stands on, whose every effect it keeps, with
 * the cost of chosen edges raised further by factors that only ever grow. It is made for one
 * request and dropped with it, so no penalty reaches another query; and since it only raises
 * costs, the search bounds computed without it (landmarks, the straight line) stay admissible.
 * A costing made with it (createCosting) asks it for every edge it marks, as for reports.
 */
export class PenaltyOverlay extends RouteOverlay {
  private readonly factors = new Map<number, number>();

  constructor(
    edgeCount: number,
    /** The accepted reports' overlay of the graph, or null where none applies. */
    private readonly reports: RouteOverlay | null,
  ) {
    super(edgeCount);
    if (reports) this.marked.set(reports.marked);
  }

  /** Multiplies the edge's cost by `factor` on top of what it already costs: never below 1, so a penalty never lowers a cost. */
  penalize(edge: number, factor: number): void {
    if (!(factor >= 1)) throw new RangeError(`A penalty factor raises a cost: ${factor} is below 1`);
    setBit(this.marked, edge);
    this.factors.set(edge, (this.factors.get(edge) ?? 1) * factor);
  }

  /** The penalty on the edge alone, without the reports' effects (1 where none). */
  penaltyOf(edge: number): number {
    return this.factors.get(edge) ?? 1;
  }

  override edgeFactor(edge: number, minute: number, supersafe: boolean): number {
    const reported = this.reports ? this.reports.edgeFactor(edge, minute, supersafe) : 1;
    return reported * this.penaltyOf(edge);
  }

  override forbidsEntry(to: number, node: number, minute: number): boolean {
    return this.reports !== null && this.reports.forbidsEntry(to, node, minute);
  }
}
