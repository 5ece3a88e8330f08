import { userInfo } from 'node:os';
import { cities } from '../core/cities/index.ts';
import { escapeControlCharacters } from '../core/control-characters.ts';
import { DomainError } from '../platform/errors.ts';
import { isReportStatus, REPORT_STATUSES, type ReportStatus } from '../functions/reports/lifecycle.ts';
import { acceptReport, rejectReport, resolveReport, type DecisionResult } from '../functions/reports/review.ts';
import { auditTrail, getReport, reportsWithStatus, type ReportItem } from '../functions/reports/store.ts';

/**
 * `npm run admin -- reports ...`: the human review of road reports (docs/reports.md, "Review").
 *
 *   reports list [--status <status>] [--limit N]       newest changes first; every status without --status
 *   reports show <id>                                   the report, its analysis and its audit trail
 *   reports accept <id> [--note <text>] [--until <YYYY-MM-DDTHH:mm>] [--against-geometry]
 *   reports reject <id> --note <text>                   the note is the reason the submitter reads
 *   reports resolve <id> --note <text>                  an accepted problem is gone; routing forgets it
 *
 * `--reviewer <name>` names who decides in the audit trail (default: SPOKE_REVIEWER, else the
 * operating-system user). What reporters wrote is printed with control characters escaped
 * (`\u001b`, `\n`), so a report cannot drive the operator's terminal or forge a line.
 */

export class ReviewUsageError extends Error {}

export interface ReviewOptions {
  status?: string;
  limit?: string;
  note?: string;
  until?: string;
  'against-geometry'?: boolean;
  reviewer?: string;
}

const DEFAULT_LIST_LIMIT = 50;

function reviewerName(options: ReviewOptions): string {
  const name = (options.reviewer ?? process.env.SPOKE_REVIEWER ?? userInfo().username).trim();
  if (!name) throw new ReviewUsageError('Name the reviewer with --reviewer <name>');
  return name;
}

function listLine(report: ReportItem): string {
  const road = report.analysis?.road;
  const where = road ? `${road.name ?? `unnamed ${road.safety_class}`} (${report.city})` : (report.city ?? 'outside the covered cities');
  const group = report.analysis?.duplicate_of ? `  same as ${report.analysis.duplicate_of}` : '';
  const line = [report.report_id, report.status.padEnd(9), report.updated_at, `${report.issue_type}/${report.issue_subtype ?? '-'}`.padEnd(34), where].join('  ') + group;
  return `${escapeControlCharacters(line)}\n    ${escapeControlCharacters(report.summary ?? '(not analysed yet)')}`;
}

function describeReport(report: ReportItem): string {
  const road = report.analysis?.road;
  const lines = [
    `${report.report_id}  ${report.status}  filed ${report.created_at}  changed ${report.updated_at}`,
    `  ${report.issue_type} / ${report.issue_subtype ?? '-'}${report.analysis ? (report.analysis.classified ? '  (classified automatically)' : '  (subtype not recognised: classify it)') : ''}`,
    `  at ${report.location.join(', ')}${report.city ? ` in ${cities[report.city].name}` : ', outside the covered cities'}`,
    `  filed through ${report.channel}${report.source ? ` for ${report.source}` : ''}${report.key_id ? ` with key ${report.key_id}` : ''}${report.client_id ? ` by app ${report.client_id}` : ''}`,
  ];
  if (report.road_name) lines.push(`  road named by the reporter: ${report.road_name}`);
  if (report.description) lines.push(`  description: ${report.description}`);
  if (report.analysis) {
    lines.push(
      road
        ? `  located on way ${road.way_id} ${road.name ?? '(unnamed)'}, ${road.safety_class}, ${road.distance_metres} m away; reporter's road name ${report.analysis.road_name_check.replace('_', ' ')}`
        : '  not located on a road',
    );
    if (report.analysis.duplicate_of) lines.push(`  same problem as ${report.analysis.duplicate_of} (${report.analysis.similar_open_reports} earlier open reports)`);
  }
  lines.push(`  summary: ${report.summary ?? '(none yet)'}`);
  return lines.map(escapeControlCharacters).join('\n');
}

function describeDecision(result: DecisionResult): string {
  const lines = [describeReport(result.report)];
  if (result.avoidance) {
    const until = result.avoidance.until ? ` until ${result.avoidance.until}` : ' until resolved';
    lines.push(escapeControlCharacters(`  routing: ${result.avoidance.effect} on way ${result.avoidance.way_id ?? '(none located)'} in ${result.avoidance.city}${until}`));
  }
  return lines.join('\n');
}

async function decide(work: () => Promise<DecisionResult>): Promise<void> {
  try {
    console.log(describeDecision(await work()));
  } catch (error) {
    if (error instanceof DomainError) throw new ReviewUsageError(error.message);
    throw error;
  }
}

export async function reportsCommand(command: string | undefined, reportId: string | undefined, options: ReviewOptions): Promise<void> {
  const needId = () => {
    if (!reportId) throw new ReviewUsageError(`Usage: admin reports ${command} <report id>`);
    return reportId;
  };
  switch (command) {
    case 'list': {
      if (options.status !== undefined && !isReportStatus(options.status)) {
        throw new ReviewUsageError(`--status must be one of ${REPORT_STATUSES.join(', ')}`);
      }
      const limit = options.limit === undefined ? DEFAULT_LIST_LIMIT : Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new ReviewUsageError('--limit must be a positive whole number');
      const statuses: readonly ReportStatus[] = options.status ? [options.status as ReportStatus] : REPORT_STATUSES;
      const found = (await Promise.all(statuses.map((status) => reportsWithStatus(status, limit)))).flat();
      found.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
      const shown = found.slice(0, limit);
      for (const report of shown) console.log(listLine(report));
      if (shown.length === 0) console.log(`No reports${options.status ? ` with status ${options.status}` : ''}.`);
      return;
    }
    case 'show': {
      const report = await getReport(needId());
      if (!report) throw new ReviewUsageError(`No report ${reportId}`);
      console.log(describeReport(report));
      console.log('  audit trail:');
      for (const entry of await auditTrail(report.report_id)) {
        const until = entry.until ? ` until ${entry.until}` : '';
        console.log(escapeControlCharacters(`    ${entry.at}  ${entry.actor}  ${entry.from ?? '(new)'} -> ${entry.to}${until}${entry.note ? `  "${entry.note}"` : ''}`));
      }
      return;
    }
    case 'accept':
      return decide(() =>
        acceptReport({
          reportId: needId(),
          reviewer: reviewerName(options),
          ...(options.note !== undefined ? { note: options.note } : {}),
          ...(options.until !== undefined ? { until: options.until } : {}),
          againstGeometry: options['against-geometry'] ?? false,
        }),
      );
    case 'reject':
      return decide(() => rejectReport({ reportId: needId(), reviewer: reviewerName(options), ...(options.note !== undefined ? { note: options.note } : {}) }));
    case 'resolve':
      return decide(() => resolveReport({ reportId: needId(), reviewer: reviewerName(options), ...(options.note !== undefined ? { note: options.note } : {}) }));
    default:
      throw new ReviewUsageError('Usage: admin reports list|show|accept|reject|resolve ... (see bin/admin-reports.ts)');
  }
}
