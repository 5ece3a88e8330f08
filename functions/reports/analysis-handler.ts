import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { withInvocationLogging } from '../../platform/invocation-logging.ts';
import { logger } from '../../platform/logger.ts';
import { queues } from '../../platform/resources.ts';
import { GraphUnavailableError } from '../../core/routing/errors.ts';
import { analyseReport, UnknownReportError } from './analysis.ts';
import type { AnalysisMessage } from './outbox.ts';

/**
 * The analysis queue's consumer. Each message is one report; a batch is processed with
 * Powertools' BatchProcessor, so a message that fails is reported in `batchItemFailures` and
 * retried alone (the event source has `reportBatchItemFailures`), and after the queue's
 * `maxReceiveCount` tries it moves to the dead-letter queue, whose alarm tells the operator.
 * Redelivery is harmless: a report leaves `received` once (analysis.ts).
 */

/** A message that can never be processed: not JSON, or without a report id. */
class MessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageError';
  }
}

/** The report id of a message; anything else is a poison message, failed on every try. */
export function parseAnalysisMessage(body: string): AnalysisMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new MessageError('Analysis message is not JSON');
  }
  const reportId = (parsed as Partial<AnalysisMessage> | null)?.report_id;
  if (typeof reportId !== 'string' || !reportId) throw new MessageError('Analysis message has no report_id');
  return { report_id: reportId };
}

async function analyseRecord(record: SQSRecord): Promise<void> {
  const receives = Number(record.attributes.ApproximateReceiveCount);
  try {
    const { report_id: reportId } = parseAnalysisMessage(record.body);
    const outcome = await analyseReport(reportId, { lastAttempt: receives >= queues.reportAnalysis.maxReceiveCount });
    logger.info('report analysis', { reportId, outcome, receives });
  } catch (error) {
    // The message id, never its body; the dead-letter queue keeps the body for inspection. An
    // expected refusal is one line; anything else keeps its stack.
    const expected = error instanceof MessageError || error instanceof UnknownReportError || error instanceof GraphUnavailableError;
    logger.error('report analysis failed', {
      messageId: record.messageId,
      receives,
      ...(expected ? { reason: (error as Error).message } : { error: error as Error }),
    });
    throw error;
  }
}

// A processor per batch: it holds the batch's results, and invocations may share a process.
export const handler = withInvocationLogging<SQSEvent, SQSBatchResponse>((event, context) =>
  processPartialResponse(event, analyseRecord, new BatchProcessor(EventType.SQS), { context }));
