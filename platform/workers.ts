import { SINGLE_CITY_FUNCTION_MEMORY_MB } from './function-memory.ts';
import type { ResourceAccess } from './endpoints.ts';

/**
 * Every background function of the platform, defined once: functions that no HTTP request
 * calls. A worker whose `access` says `consume` for a queue is that queue's consumer (an SQS event
 * source with partial batch failures in AWS, a subscription to the in-process queue locally); a
 * worker with `everyMinutes` runs on that schedule (an EventBridge rule in AWS, the local
 * scheduler here). The CDK stack (lib/worker-functions.ts) and the local platform (lib/local/launch.ts)
 * are both generated from this list.
 */

export interface WorkerDefinition {
  readonly id: string;
  /** Module exporting `handler`, relative to the project root. */
  readonly entry: string;
  readonly description: string;
  readonly access: ResourceAccess;
  /** Runs every this many minutes (EventBridge `rate()`), with a scheduled event. */
  readonly everyMinutes?: number;
  readonly memoryMb?: number;
  readonly timeoutSeconds?: number;
}

export const workers: readonly WorkerDefinition[] = [
  // Road reports (docs/reports.md).
  {
    id: 'report-analysis',
    entry: 'functions/reports/analysis-handler.ts',
    description: 'Analyses road reports from the queue: classifies, locates on the city graph, groups duplicates, moves to in_review',
    access: {
      tables: { reports: 'readwrite', reportAudit: 'readwrite' },
      buckets: { graphs: 'read' },
      queues: { reportAnalysis: 'consume' },
    },
    // Loads a city's routing graph, as the routers do.
    memoryMb: SINGLE_CITY_FUNCTION_MEMORY_MB,
    timeoutSeconds: 30,
  },
  {
    id: 'report-outbox',
    entry: 'functions/reports/outbox-handler.ts',
    description: 'Hands reports whose submission stopped between the write and the enqueue to the analysis queue',
    access: {
      tables: { reports: 'readwrite' },
      queues: { reportAnalysis: 'send' },
    },
    everyMinutes: 1,
    timeoutSeconds: 50,
  },
];

/** The definition of a worker by id; an unknown id is a programming error. */
export function workerDefinition(id: string): WorkerDefinition {
  const definition = workers.find((candidate) => candidate.id === id);
  if (!definition) throw new Error(`No worker named ${id} in platform/workers.ts`);
  return definition;
}
