import { randomUUID } from 'node:crypto';
import { cityForCoordinate } from '../../core/cities/index.ts';
import type { Principal } from '../auth/principal.ts';
import { now } from '../../platform/clock.ts';
import { IdempotencyKeyReusedError, repeatableUuid, type RepeatableRequest } from '../../platform/idempotency.ts';
import { logger } from '../../platform/logger.ts';
import { recordMetric } from '../../platform/metrics.ts';
import { attributionOf, submitterLabel } from './attribution.ts';
import { enqueueForAnalysis, outboxDueAt } from './outbox.ts';
import type { ReportSubmission } from './request.ts';
import { auditEntry, clearOutbox, getReport, insertReport, OUTBOX_PENDING, type ReportItem } from './store.ts';

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
 *
 * A request sent with an Idempotency-Key (`repeatable`) files its report under an id derived from
 * the caller and the key. A send that runs again after the first stored the report (the first
 * died before its answer was recorded) finds that report and answers it instead of filing a
 * second; the same key with another body is refused.
 */
export async function submitReport(principal: Principal, body: ReportSubmission, repeatable: RepeatableRequest | null = null): Promise<SubmittedReport> {
  const at = now();
  const createdAt = at.toISOString();
  const attribution = attributionOf(principal);
  const report: ReportItem = {
    report_id: repeatable ? repeatableUuid(repeatable, 'report') : randomUUID(),
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
    ...(repeatable ? { request_fingerprint: repeatable.fingerprint } : {}),
  };
  const stored = await insertReport(
    report,
    auditEntry({ report_id: report.report_id, at: createdAt, actor: submitterLabel(attribution), action: 'submit', from: null, to: 'received' }),
  );
  if (!stored) return filedBefore(report.report_id, repeatable);
  recordMetric('ReportsByStatus', 1, { Status: 'received' });
  try {
    if ((await enqueueForAnalysis([report.report_id], ENQUEUE_TIMEOUT_MS)).length === 1) await clearOutbox(report.report_id);
  } catch (error) {
    // Stored and marked: the sweeper enqueues it after the grace period.
    logger.warn('report left to the outbox sweeper', { reportId: report.report_id, error: (error as Error).name });
  }
  return { id: report.report_id, status: 'received', created_at: createdAt };
}

/** The answer for a report already stored under this id: only a repeat of a keyed request can meet one. */
async function filedBefore(reportId: string, repeatable: RepeatableRequest | null): Promise<SubmittedReport> {
  const earlier = await getReport(reportId);
  if (!repeatable || !earlier) throw new Error(`Report ${reportId} could not be stored: the id is taken`);
  if (earlier.request_fingerprint !== repeatable.fingerprint) throw new IdempotencyKeyReusedError();
  return { id: earlier.report_id, status: 'received', created_at: earlier.created_at };
}
