/**
 * A report's statuses and the moves between them (spec 3.1 names `received`, `in_review` and
 * `accepted`; the rest are this platform's, documented in docs/reports.md). Every status change
 * is one of these moves, made as a conditional write on the status it moves from, so a move is
 * made once however often it is attempted (a redelivered message, two reviewers at once).
 */

export const REPORT_STATUSES = ['received', 'in_review', 'accepted', 'rejected', 'resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const isReportStatus = (value: string): value is ReportStatus => (REPORT_STATUSES as readonly string[]).includes(value);

export interface Move {
  readonly from: ReportStatus;
  readonly to: ReportStatus;
  /** What the move means, for the audit trail and the docs. */
  readonly meaning: string;
}

export const MOVES = {
  /** The automated analysis finished: classified, located, grouped, summarised. */
  analyse: { from: 'received', to: 'in_review', meaning: 'automated analysis complete; waiting for a reviewer' },
  /** A reviewer confirms the report; a report that changes routing starts doing so now. */
  accept: { from: 'in_review', to: 'accepted', meaning: 'a reviewer confirmed the report' },
  /** A reviewer turns the report down (a duplicate, not reproducible, not a road problem), with a note. */
  reject: { from: 'in_review', to: 'rejected', meaning: 'a reviewer turned the report down' },
  /** The problem is gone (the road reopened, the hazard was fixed); routing stops avoiding it. */
  resolve: { from: 'accepted', to: 'resolved', meaning: 'a reviewer recorded that the problem is gone' },
} as const satisfies Record<string, Move>;

export type MoveName = keyof typeof MOVES;
