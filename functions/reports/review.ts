import { DateTime } from 'luxon';
import { cities } from '../../core/cities/index.ts';
import { now } from '../../platform/clock.ts';
import { DomainError, NotFoundError } from '../../platform/errors.ts';
import { tableName } from '../../platform/resources.ts';
import { avoidanceEffect, type AvoidanceItem } from '../../core/report-avoidances.ts';
import { MOVES, type MoveName } from './lifecycle.ts';
import { acceptedSummary, rejectedSummary, resolvedSummary } from './summary.ts';
import { changeStatus, changeTime, getReport, type ReportItem, type ReviewRecord } from './store.ts';

/**
 * Human review (spec 3.1: "a human reviewer acts"): accept, reject, and resolve an accepted
 * report whose problem is gone. Each decision is one transaction: the status change, its audit
 * entry naming the reviewer, and what routing reads (the report's `routeAvoidances` item, written
 * on acceptance and deleted on resolution), so routing and the report can never disagree.
 */

/** A reviewer's note is shown to the submitter when it is a rejection's reason: kept to a line. */
export const MAX_NOTE_CHARACTERS = 500;
/** An avoidance item outlives its end by this much before DynamoDB's TTL may delete it. */
const AVOIDANCE_RETENTION_SECONDS = 86_400;
/** `--until`: local wall-clock time in the report's city. */
const LOCAL_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

export interface Decision {
  reportId: string;
  /** Who decides, as the audit trail records it. */
  reviewer: string;
  note?: string;
}

export interface Acceptance extends Decision {
  /** `YYYY-MM-DDTHH:mm` in the report city's time: when a temporary problem ends. */
  until?: string;
  /** For a one-way report: the legal direction is against the way's drawn direction. */
  againstGeometry?: boolean;
}

export interface DecisionResult {
  report: ReportItem;
  /** What routing now reads for the report, if anything. */
  avoidance: AvoidanceItem | null;
}

async function reportIn(reportId: string, move: MoveName): Promise<ReportItem> {
  const report = await getReport(reportId);
  if (!report) throw new NotFoundError(`No report ${reportId}`);
  const { from } = MOVES[move];
  if (report.status !== from) throw new DomainError('conflict', `Report ${reportId} is ${report.status}; only a report ${from} can be moved to ${MOVES[move].to}`);
  return report;
}

function checkedNote(note: string | undefined, required: boolean): string | undefined {
  const text = note?.trim();
  if (required && !text) throw new DomainError('invalid', 'A note is required: the reason, which the submitter reads in the summary');
  if (text && [...text].length > MAX_NOTE_CHARACTERS) throw new DomainError('invalid', `The note must be at most ${MAX_NOTE_CHARACTERS} characters`);
  return text || undefined;
}

/** `--until` read in the city's zone, as an ISO instant; it must lie ahead. */
export function untilInstant(report: Pick<ReportItem, 'city'>, until: string, at: Date): string {
  if (!report.city) throw new DomainError('invalid', '--until needs a report in a covered city, whose time zone it is read in');
  if (!LOCAL_TIME_PATTERN.test(until)) throw new DomainError('invalid', '--until must be YYYY-MM-DDTHH:mm, local time in the report\'s city');
  const local = DateTime.fromISO(until, { zone: cities[report.city].timeZone });
  if (!local.isValid) throw new DomainError('invalid', `--until ${until} is not a valid date and time`);
  if (local.toMillis() <= at.getTime()) throw new DomainError('invalid', `--until ${until} (${cities[report.city].timeZone}) has already passed`);
  return local.toUTC().toISO({ suppressMilliseconds: true })!;
}

const conflictAfterRace = (reportId: string) =>
  new DomainError('conflict', `Report ${reportId} changed while this decision was being made; look at it again`);

export async function acceptReport(input: Acceptance): Promise<DecisionResult> {
  const report = await reportIn(input.reportId, 'accept');
  const note = checkedNote(input.note, false);
  const at = now();
  const effect = avoidanceEffect(report.issue_type, report.issue_subtype);
  if (input.until !== undefined && !effect) {
    throw new DomainError('invalid', '--until applies only to reports that change routing (road_closed with a recognised closure subtype, road_unsafe)');
  }
  if (input.againstGeometry && effect !== 'one_way') throw new DomainError('invalid', '--against-geometry applies only to one-way reports');
  const until = input.until !== undefined ? untilInstant(report, input.until, at) : null;
  const changedAt = changeTime(report, at);
  const avoidance: AvoidanceItem | null =
    effect && report.city
      ? {
          city: report.city,
          report_id: report.report_id,
          effect,
          issue_type: report.issue_type,
          issue_subtype: report.issue_subtype,
          location: report.location,
          way_id: report.analysis?.road?.way_id ?? null,
          road_name: report.analysis?.road?.name ?? null,
          ...(effect === 'one_way' ? { against_geometry: input.againstGeometry ?? false } : {}),
          until,
          accepted_at: changedAt,
          ...(until ? { expires_at: Math.floor(Date.parse(until) / 1000) + AVOIDANCE_RETENTION_SECONDS } : {}),
        }
      : null;
  const review: ReviewRecord = { by: input.reviewer, at: changedAt, note: note ?? null, until };
  const summary = acceptedSummary(report, avoidance ? effect : null, input.until ?? null);
  const moved = await changeStatus({
    reportId: report.report_id,
    move: 'accept',
    at: changedAt,
    actor: `reviewer:${input.reviewer}`,
    set: { review, summary },
    note,
    until,
    alongside: avoidance ? [{ Put: { TableName: tableName('routeAvoidances'), Item: avoidance } }] : [],
  });
  if (!moved) throw conflictAfterRace(report.report_id);
  return { report: { ...report, status: 'accepted', updated_at: changedAt, review, summary }, avoidance };
}

export async function rejectReport(input: Decision): Promise<DecisionResult> {
  const report = await reportIn(input.reportId, 'reject');
  const note = checkedNote(input.note, true)!;
  const changedAt = changeTime(report, now());
  const review: ReviewRecord = { by: input.reviewer, at: changedAt, note, until: null };
  const summary = rejectedSummary(note);
  const moved = await changeStatus({ reportId: report.report_id, move: 'reject', at: changedAt, actor: `reviewer:${input.reviewer}`, set: { review, summary }, note });
  if (!moved) throw conflictAfterRace(report.report_id);
  return { report: { ...report, status: 'rejected', updated_at: changedAt, review, summary }, avoidance: null };
}

/** The problem is gone: routing stops avoiding it at once. */
export async function resolveReport(input: Decision): Promise<DecisionResult> {
  const report = await reportIn(input.reportId, 'resolve');
  const note = checkedNote(input.note, true)!;
  const changedAt = changeTime(report, now());
  const changesRouting = Boolean(report.city && avoidanceEffect(report.issue_type, report.issue_subtype));
  const summary = resolvedSummary(report, changesRouting);
  const moved = await changeStatus({
    reportId: report.report_id,
    move: 'resolve',
    at: changedAt,
    actor: `reviewer:${input.reviewer}`,
    set: { summary, resolution: { by: input.reviewer, at: changedAt, note } },
    note,
    alongside: changesRouting
      ? [{ Delete: { TableName: tableName('routeAvoidances'), Key: { city: report.city, report_id: report.report_id } } }]
      : [],
  });
  if (!moved) throw conflictAfterRace(report.report_id);
  return { report: { ...report, status: 'resolved', updated_at: changedAt, summary }, avoidance: null };
}
