import { setTimeout as sleep } from 'node:timers/promises';
import type { ScheduledEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalScheduler } from '../../lib/local/scheduler.ts';
import { until } from '../support/until.ts';


/** The local scheduler runs jobs as an EventBridge rate() rule invokes its target. */
describe('the local scheduler', () => {
  const schedulers: LocalScheduler[] = [];
  const scheduler = (onError?: (name: string, error: unknown) => void) => {
    const created = new LocalScheduler(onError);
    schedulers.push(created);
    return created;
  };
  afterEach(async () => {
    for (const created of schedulers.splice(0)) await created.stop();
  });

  it('invokes the job one period after start and every period after, with a scheduled event', async () => {
    const runs: { at: number; event: ScheduledEvent }[] = [];
    const started = Date.now();
    scheduler().every('sweep', 100, 5, async (event) => {
      runs.push({ at: Date.now() - started, event });
    });
    await sleep(30);
    expect(runs).toHaveLength(0);
    await until(() => runs.length >= 3);
    expect(runs[0]!.at).toBeGreaterThanOrEqual(95);
    expect(runs[0]!.event).toMatchObject({
      version: '0',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      resources: ['arn:aws:events:us-east-1:000000000000:rule/sweep'],
      detail: {},
    });
    expect(runs[0]!.event.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(new Set(runs.map((run) => run.event.id)).size).toBe(runs.length);
  });

  it('does not wait for a slow run before the next tick, and stop waits for runs in progress', async () => {
    let running = 0;
    let most = 0;
    let finished = 0;
    const subject = scheduler();
    subject.every('slow', 50, 5, async () => {
      running++;
      most = Math.max(most, running);
      await sleep(180);
      running--;
      finished++;
    });
    await until(() => most >= 2);
    const startedRuns = finished + running;
    await subject.stop();
    expect(running).toBe(0);
    expect(finished).toBe(startedRuns);
  });

  it('reports a failed run and keeps the schedule; runNow answers what the handler answered', async () => {
    const errors: string[] = [];
    let calls = 0;
    const subject = scheduler((name, error) => errors.push(`${name}: ${(error as Error).message}`));
    subject.every('flaky', 60, 5, async () => {
      calls++;
      if (calls === 1) throw new Error('first run fails');
      return { calls };
    });
    await until(() => calls >= 2);
    expect(errors).toEqual(['flaky: first run fails']);
    const answer = (await subject.runNow('flaky')) as { calls: number };
    expect(answer.calls).toBe(calls);
  });
});
