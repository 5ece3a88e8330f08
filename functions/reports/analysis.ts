import { haversineMetres } from '../../core/geo.ts';
import { now } from '../../platform/clock.ts';
import { logger } from '../../platform/logger.ts';
import { recordMetric } from '../../platform/metrics.ts';
import { GraphUnavailableError } from '../../core/routing/errors.ts';
import { isRecognisedSubtype } from './fields.ts';
import type { ReportStatus } from './lifecycle.ts';
import { locateReport, type Location } from './locate-report.ts';
import { analysisSummary } from './summary.ts';
import { changeStatus, changeTime, getReport, reportsOnWay, type ReportAnalysis, type ReportItem } from './store.ts';

/**
 * The automated pass every report gets (docs/reports.md, "Analysis"): classify it from a
 * recognised subtype, locate it on the nearest road of its city's graph, group it with earlier
 * reports of the same problem, write its one-line summary, and move it to `in_review`, all in one
 * conditional write, so a report is analysed once however often its message is delivered.
 */

/** Reports of the same category on the same road within this distance are the same problem. */
export const DUPLICATE_RADIUS_METRES = 150;
/** ...if filed within this many days of each other. */
export const DUPLICATE_WINDOW_DAYS = 30;
/** Statuses of reports that still describe an open problem. */
const OPEN_STATUSES: ReadonlySet<ReportStatus> = new Set(['received', 'in_review', 'accepted']);

export type AnalysisOutcome = 'analysed' | 'already-analysed';

/** A report that does not exist: its message can never succeed (a poison message). */
export class UnknownReportError extends Error {
  constructor(reportId: string) {
    super(`Report ${reportId} does not exist`);
    this.name = 'UnknownReportError';
  }
}

export interface AnalysisOptions {
  /**
   * This delivery is the queue's last try: a report whose city graph cannot be loaded is then
   * analysed without a location instead of being left to the dead-letter queue.
   */
  lastAttempt?: boolean;
}

async function locate(report: ReportItem, options: AnalysisOptions): Promise<Location> {
  if (!report.city) return { road: null, roadNameCheck: 'not_located', unlocated: 'outside_cities' };
  try {
    return await locateReport(report.city, report.location, report.road_name, report.issue_type);
  } catch (error) {
    if (!(error instanceof GraphUnavailableError) || !options.lastAttempt) throw error;
    logger.warn('report analysed without a location: no graph', { reportId: report.report_id, city: report.city });
    return { road: null, roadNameCheck: 'not_located', unlocated: 'no_graph' };
  }
}

/** Earlier open reports of the same category on the same road nearby, oldest first. */
async function earlierReportsOfTheSameProblem(report: ReportItem, wayKey: string): Promise<ReportItem[]> {
  const since = new Date(Date.parse(report.created_at) - DUPLICATE_WINDOW_DAYS * 86_400_000).toISOString();
  const candidates = await reportsOnWay(wayKey, since);
  return candidates
    .filter(
      (other) =>
        other.report_id !== report.report_id &&
        other.issue_type === report.issue_type &&
        OPEN_STATUSES.has(other.status) &&
        (other.created_at < report.created_at || (other.created_at === report.created_at && other.report_id < report.report_id)) &&
        haversineMetres(other.location[0], other.location[1], report.location[0], report.location[1]) <= DUPLICATE_RADIUS_METRES,
    )
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export const wayKeyOf = (report: Pick<ReportItem, 'city'>, wayId: number): string => `${report.city}:${wayId}`;

export async function analyseReport(reportId: string, options: AnalysisOptions = {}): Promise<AnalysisOutcome> {
  const report = await getReport(reportId);
  if (!report) throw new UnknownReportError(reportId);
  if (report.status !== 'received') return 'already-analysed';

  const location = await locate(report, options);
  const wayKey = location.road ? wayKeyOf(report, location.road.way_id) : null;
  const earlier = wayKey ? await earlierReportsOfTheSameProblem(report, wayKey) : [];
  const first = earlier[0];
  const analysis: ReportAnalysis = {
    analysed_at: changeTime(report, now()),
    classified: report.issue_subtype !== null && isRecognisedSubtype(report.issue_type, report.issue_subtype),
    road: location.road,
    unlocated: location.unlocated,
    road_name_check: location.roadNameCheck,
    // Point at the first report of the group, so a group has one head however it grew.
    duplicate_of: first ? (first.analysis?.duplicate_of ?? first.report_id) : null,
    similar_open_reports: earlier.length,
  };
  const moved = await changeStatus({
    reportId,
    move: 'analyse',
    at: analysis.analysed_at,
    actor: 'analysis',
    set: { analysis, summary: analysisSummary(report, analysis), ...(wayKey ? { way_key: wayKey } : {}) },
    // Analysed means handed over: a marker left by a crash after the enqueue goes too.
    remove: ['outbox', 'outbox_due_at'],
  });
  if (moved) recordMetric('ReportTimeToAnalysed', Date.parse(analysis.analysed_at) - Date.parse(report.created_at), {});
  return moved ? 'analysed' : 'already-analysed';
}
