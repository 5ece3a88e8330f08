import middy from '@middy/core';
import type { ScheduledEvent } from 'aws-lambda';
import { invocationLogging } from '../http/middleware/logging.ts';
import { sweepOutbox, type SweepResult } from './outbox.ts';

/** Every minute (EventBridge in AWS, the local scheduler here): hands stranded reports to the analysis queue. */
export const handler = middy<ScheduledEvent, SweepResult>()
  // The Lambda context and, as correlation_id, the invocation's request id on every line.
  .use(invocationLogging())
  .handler(() => sweepOutbox());
