import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '../platform/logger.ts';
import { sweepOutbox, type SweepResult } from './outbox.ts';

/** Every minute (EventBridge in AWS, the local scheduler here): hands stranded reports to the analysis queue. */
export const handler = middy<ScheduledEvent, SweepResult>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(() => sweepOutbox());
