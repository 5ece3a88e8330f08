import type { ScheduledEvent } from 'aws-lambda';
import { withInvocationLogging } from '../../platform/invocation-logging.ts';
import { sweepOutbox, type SweepResult } from './outbox.ts';

/** Every minute (EventBridge in AWS, the local scheduler here): hands stranded reports to the analysis queue. */
export const handler = withInvocationLogging<ScheduledEvent, SweepResult>(() => sweepOutbox());
