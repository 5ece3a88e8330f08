import { randomUUID } from 'node:crypto';
import { cityForCoordinate } from '../../core/cities/index.ts';
import type { Principal } from '../auth/principal.ts';
import { now } from '../platform/clock.ts';
import { logger } from '../platform/logger.ts';
import { attributionOf, submitterLabel } from './attribution.ts';
import { enqueueForAnalysis, outboxDueAt } from './outbox.ts';
import type { ReportSubmission } from './request.ts';
import { auditEntry, clearOutbox, insertReport, OUTBOX_PENDING, type ReportItem } from './store.ts';

/**
 * How long a submission waits for SQS before answering anyway: the report is stored and the
 * sweeper enqueues it, so a slow queue never holds the caller.
 */
const ENQUEUE_TIMEOUT_MS = 2_000;

/** The answer to POST /reports/ (spec 4.4). */
export interface SubmittedReport {
  id: string;
  status: 'received';
  created_at: string;
}

/**
 * Files a report: stored (with its outbox marker) before anything else, then handed to the
 * analysis queue. The caller gets its id as soon as the report is stored; if the hand-over fails
 * the outbox sweeper makes it (outbox.ts), so a stored report is never stranded.
 */
export async function submitReport(principal: Principal, body: ReportSubmission): Promise<SubmittedReport> {
  const at = now();
  const createdAt = at.toISOString();
  const attribution = attributionOf(principal);
  const report: ReportItem = {
    report_id: randomUUID(),
    status: 'received',
    created_at: createdAt,
    updated_at: createdAt,
    issue_type: body.issue_type,
    issue_subtype: body.issue_subtype,
    location: [body.location[0], body.location[1]],
    description: body.description,
    road_name: body.road_name,
    city: cityForCoordinate(body.location)?.id ?? null,
    ...attribution,
    summary: null,
    outbox: OUTBOX_PENDING,
    outbox_due_at: outboxDueAt(at),
  };
  await insertReport(
    report,
    auditEntry({ report_id: report.report_id, at: createdAt, actor: submitterLabel(attribution), action: 'submit', from: null, to: 'received' }),
  );
  try {
    if ((await enqueueForAnalysis([report.report_id], ENQUEUE_TIMEOUT_MS)).length === 1) await clearOutbox(report.report_id);
  } catch (error) {
    // Stored and marked: the sweeper enqueues it after the grace period.
    logger.warn('report left to the outbox sweeper', { reportId: report.report_id, error: (error as Error).name });
  }
  return { id: report.report_id, status: 'received', created_at: createdAt };
}
