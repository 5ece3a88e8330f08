import { randomUUID } from 'node:crypto';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { invoke } from './invocations.ts';
import { lambdaContext, LOCAL_ACCOUNT, LOCAL_REGION } from './queue.ts';

/**
 * EventBridge schedules for the local platform: a job defined with `everyMinutes` (functions/
 * platform/workers.ts) is invoked with a real `ScheduledEvent` one period after start and every
 * period after that, as a `rate()` rule invokes its target. Like EventBridge, a tick does not wait
 * for the previous run to end. A failed run is logged; the next tick is its retry (EventBridge's
 * asynchronous invocation would retry twice first, which a one-minute job does not need).
 */

export type ScheduledHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;

interface Job {
  name: string;
  periodMs: number;
  timeoutSeconds: number;
  handler: ScheduledHandler;
  timer?: NodeJS.Timeout;
}

export class LocalScheduler {
  private readonly jobs = new Map<string, Job>();
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly onError: (name: string, error: unknown) => void = () => undefined) {}

  /** Runs `handler` every `periodMs`, first after one period. */
  every(name: string, periodMs: number, timeoutSeconds: number, handler: ScheduledHandler): void {
    if (this.jobs.has(name)) throw new Error(`A scheduled job named ${name} exists already`);
    const job: Job = { name, periodMs, timeoutSeconds, handler };
    job.timer = setInterval(() => void this.run(job).catch(() => undefined), periodMs);
    job.timer.unref();
    this.jobs.set(name, job);
  }

  /** One run now, as a tick would make it; answers what the handler answered. Tests use it. */
  runNow(name: string): Promise<unknown> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`No scheduled job named ${name}`);
    return this.run(job);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs.values()) clearInterval(job.timer);
    await Promise.allSettled([...this.running]);
  }

  private run(job: Job): Promise<unknown> {
    if (this.stopped) return Promise.resolve(undefined);
    const context = lambdaContext(job.name, job.timeoutSeconds);
    const run = invoke(context, () => job.handler(scheduledEvent(job.name), context)).catch((error: unknown) => {
      this.onError(job.name, error);
      throw error;
    });
    this.running.add(run);
    void run.finally(() => this.running.delete(run)).catch(() => undefined);
    return run;
  }
}

/** The event an EventBridge scheduled rule sends its target. */
export function scheduledEvent(ruleName: string, at: Date = new Date()): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: LOCAL_ACCOUNT,
    time: `${at.toISOString().slice(0, 19)}Z`,
    region: LOCAL_REGION,
    resources: [`arn:aws:events:${LOCAL_REGION}:${LOCAL_ACCOUNT}:rule/${ruleName}`],
    detail: {},
  };
}
