import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queues, type QueueName } from '../../platform/resources.ts';
import { workers } from '../../platform/workers.ts';
import { redriveReceivedReports } from '../../functions/reports/outbox.ts';
import { keysOf } from '../naming.ts';
import type { ModuleLoader } from './gateway.ts';
import type { LocalQueue } from './queue.ts';
import { LocalScheduler, type ScheduledHandler } from './scheduler.ts';

/**
 * The background functions of platform/workers.ts on the local platform: each queue
 * consumer subscribed to its in-process queue (as an event source mapping would), each scheduled
 * job on the local scheduler. Their handler modules are the ones the Lambdas run.
 */

type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** The local name of a queue of resources.ts. */
export const localQueueName = (queue: QueueName): string => `spoke-${queues[queue].name}`;

export async function startWorkers(options: {
  queues: ReadonlyMap<string, LocalQueue>;
  load: ModuleLoader;
  log: (line: string) => void;
}): Promise<LocalScheduler> {
  const scheduler = new LocalScheduler((name, error) => options.log(`scheduled ${name} failed: ${(error as Error)?.stack ?? String(error)}`));
  for (const worker of workers) {
    const handler = (await options.load(worker.entry)).handler;
    for (const queue of keysOf(worker.access.queues ?? {})) {
      if (worker.access.queues?.[queue] !== 'consume') continue;
      const local = options.queues.get(localQueueName(queue));
      if (!local) throw new Error(`Worker ${worker.id} consumes ${queue}, which the local platform did not create`);
      local.subscribe(handler as QueueHandler);
    }
    if (worker.everyMinutes) scheduler.every(worker.id, worker.everyMinutes * 60_000, worker.timeoutSeconds ?? 60, handler as ScheduledHandler);
  }
  // The in-process queue does not outlive the process, as SQS would: reports still waiting for
  // analysis when the platform last stopped are queued again.
  const requeued = await redriveReceivedReports();
  if (requeued) options.log(`reports: ${requeued} waiting for analysis queued again`);
  return scheduler;
}
