import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../../platform/aws.ts';
import { now } from '../../platform/clock.ts';
import { logger } from '../../platform/logger.ts';
import { queueUrl } from '../../platform/resources.ts';
import { clearOutbox, reportsDueInOutbox, reportsWithStatus } from './store.ts';

/**
 * The transactional outbox between a report's write and its analysis (docs/reports.md,
 * "Nothing lost"). A report is written with an outbox marker in the same item, so the write and
 * the promise to enqueue it cannot be separated. The submitting function enqueues it at once and
 * clears the marker; if it stops in between (a crash, a timeout, SQS unreachable), the marker
 * stays and the sweeper, run every minute, enqueues the report once its grace period is over.
 * A report enqueued twice (the function stopped after sending, before clearing) is harmless:
 * the analysis moves a report out of `received` once, conditionally.
 */

/** How long the submitting function has to enqueue a report before the sweeper does it instead. */
export const OUTBOX_GRACE_SECONDS = 60;
/** Reports the sweeper hands over per run; more wait for the next run. */
const SWEEP_LIMIT = 500;
/** SQS takes at most ten messages per batch. */
const SQS_BATCH = 10;

/** The message of the analysis queue: only the report's id (nothing about the rider travels). */
export interface AnalysisMessage {
  report_id: string;
}

export const analysisMessage = (reportId: string): string => JSON.stringify({ report_id: reportId } satisfies AnalysisMessage);

/** The outbox marker's due time for a report written at `at`. */
export const outboxDueAt = (at: Date): string => new Date(at.getTime() + OUTBOX_GRACE_SECONDS * 1000).toISOString();

/** Sends the reports to the analysis queue; answers the ids SQS accepted. `timeoutMs` bounds each call. */
export async function enqueueForAnalysis(reportIds: readonly string[], timeoutMs?: number): Promise<string[]> {
  const sent: string[] = [];
  for (let start = 0; start < reportIds.length; start += SQS_BATCH) {
    const batch = reportIds.slice(start, start + SQS_BATCH);
    const result = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl('reportAnalysis'),
        Entries: batch.map((reportId, index) => ({ Id: String(index), MessageBody: analysisMessage(reportId) })),
      }),
      timeoutMs ? { abortSignal: AbortSignal.timeout(timeoutMs) } : {},
    );
    for (const success of result.Successful ?? []) sent.push(batch[Number(success.Id)]!);
    for (const failure of result.Failed ?? []) logger.warn('report not enqueued', { reportId: batch[Number(failure.Id)], code: failure.Code });
  }
  return sent;
}

export interface SweepResult {
  /** Reports found past their grace period still marked. */
  due: number;
  /** Of those, the ones handed to the queue now. */
  enqueued: number;
}

/**
 * Enqueues every report whose marker is past its grace period, then clears the markers. A report
 * the analysis has already moved on (its marker outlived a crash after the enqueue) only loses
 * its marker.
 */
export async function sweepOutbox(): Promise<SweepResult> {
  const due = await reportsDueInOutbox(now().toISOString(), SWEEP_LIMIT);
  const waiting = due.filter((report) => report.status === 'received').map((report) => report.report_id);
  const enqueued = await enqueueForAnalysis(waiting);
  const settled = new Set([...enqueued, ...due.filter((report) => report.status !== 'received').map((report) => report.report_id)]);
  for (const reportId of settled) await clearOutbox(reportId);
  if (due.length) logger.info('report outbox swept', { due: due.length, enqueued: enqueued.length });
  return { due: due.length, enqueued: enqueued.length };
}

/**
 * Enqueues every report still `received`. For the local platform only: its in-process queue lives
 * in memory, so messages waiting when it stopped are gone when it starts again; SQS keeps them.
 */
export async function redriveReceivedReports(): Promise<number> {
  const waiting = await reportsWithStatus('received', SWEEP_LIMIT);
  const enqueued = await enqueueForAnalysis(waiting.map((report) => report.report_id));
  return enqueued.length;
}
