import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { toAuthorizerContext, type ApiKeyPrincipal } from '../../functions/auth/principal.ts';
import { dynamo } from '../../platform/aws.ts';
import { scanAll } from '../../platform/dynamo-pages.ts';
import { logger } from '../../platform/logger.ts';
import { withClockOffset } from '../../platform/clock.ts';
import { queueUrl, queues, tableName } from '../../platform/resources.ts';
import { handler as analysisHandler } from '../../functions/reports/analysis-handler.ts';
import { analysisMessage, OUTBOX_GRACE_SECONDS, type SweepResult } from '../../functions/reports/outbox.ts';
import type { ReportSubmission } from '../../functions/reports/request.ts';
import { handler as submitHandler } from '../../functions/reports/submit-handler.ts';
import { submitReport } from '../../functions/reports/submit.ts';
import { auditEntry, auditTrail, getReport, insertReport, reportsDueInOutbox, type ReportItem } from '../../functions/reports/store.ts';
import { prepareLocalGraphs } from '../../lib/local/graphs.ts';
import { startLocalPlatform, type LocalPlatform } from '../../lib/local/launch.ts';
import { LOCAL_CREDENTIALS } from '../../lib/local/provision.ts';
import { invoke } from '../../lib/local/invocations.ts';
import { lambdaContext } from '../../lib/local/queue.ts';
import { localQueueName } from '../../lib/local/worker-triggers.ts';
import { submissionEvent, type Submission } from '../support/submission-event.ts';
import { until as pollUntil } from '../support/until.ts';

/**
 * The reports pipeline on an in-process local platform whose queue retries within a second:
 * redelivery and idempotency, a poison message reaching the dead-letter queue, a city without a
 * graph, a crash of the submitting function between its write and its enqueue (with and without an
 * Idempotency-Key), recording a keyed answer failing after the write, and a restart of the
 * platform with reports still waiting.
 */

process.env.SPOKE_GRAPH_DIR ??= join(projectRoot, '.local-data', 'graphs');

const FREE_PORTS = { base: 0, app: 0, dynamodb: 0, s3: 0, sqs: 0, idp: 0 };
const VISIBILITY_SECONDS = 1;

const principal: ApiKeyPrincipal = {
  kind: 'apikey',
  keyId: 'pipelinetest0001',
  plan: 'enterprise',
  source: null,
  limits: { perMinute: 1_000, perHour: 10_000, perDay: 100_000 },
  rateBucket: 'key:pipelinetest0001',
};

const GOWER_STREET: [number, number] = [-0.131, 51.521];
const OAKLAND: [number, number] = [-122.3041, 37.8078];
const WESTWOOD: [number, number] = [-118.4426, 34.0739];

/** Polls the platform's stores (test/support/until.ts) with the pipeline's longer bound. */
const until = <T>(probe: () => Promise<T>, timeoutMs = 30_000) => pollUntil(probe, timeoutMs, 50);

const analysed = (id: string) => until(async () => {
  const report = await getReport(id);
  return report?.status === 'in_review' ? report : undefined;
});

const analyseEntries = async (id: string) => (await auditTrail(id)).filter((entry) => entry.action === 'analyse');

/** Every stored report whose description is `marker`. */
async function reportsDescribed(marker: string): Promise<Record<string, unknown>[]> {
  return scanAll({ TableName: tableName('reports'), FilterExpression: 'description = :marker', ExpressionAttributeValues: { ':marker': marker } });
}

const authorizer = Object.fromEntries(Object.entries(toAuthorizerContext(principal)).map(([name, value]) => [name, String(value)]));

/** POST /reports/ through the submission function in this process, as the gateway would call it. */
async function submitHere(submission: Submission): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const context = lambdaContext('reports-submit', 29) as Context;
  const result = await invoke(context, () => submitHandler(submissionEvent(submission, randomUUID()), context));
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body) };
}

/**
 * Runs `work` with the wall clock `seconds` ahead. Powertools idempotency reads the wall clock
 * (not platform/clock.ts) for the deadline of an answer in progress, so only the Date
 * is moved; timers keep running.
 */
async function withWallClockAhead<T>(seconds: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + seconds * 1000 });
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

/** What the platform's functions log, through the one logger they share with this process. */
function captureLogs(): { lines: () => Record<string, unknown>[]; stop: () => void } {
  const spies = [vi.spyOn(logger, 'info'), vi.spyOn(logger, 'error')];
  return {
    lines: () =>
      spies.flatMap((spy) => spy.mock.calls.map(([message, extra]) => ({ ...(typeof extra === 'object' && extra !== null ? extra : {}), message }) as Record<string, unknown>)),
    stop: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

describe('the reports pipeline', () => {
  let platform: LocalPlatform;
  let stateDir: string;
  const platformLog: string[] = [];

  beforeAll(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'spoke-reports-'));
    platform = await startLocalPlatform({
      stateDir,
      ports: FREE_PORTS,
      queueTiming: { visibilityTimeoutSeconds: VISIBILITY_SECONDS, maxBatchingWindowSeconds: 0.05 },
      log: (line) => platformLog.push(line),
    });
    // London only: Oakland and Westwood have no graph until a test publishes one.
    await prepareLocalGraphs(['london'], () => undefined);
  });
  afterAll(() => platform.stop());

  const sqsClient = () => new SQSClient({ endpoint: platform.urls.sqs, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const file = (location: [number, number], extra: Partial<ReportSubmission> = {}) =>
    submitReport(principal, { issue_type: 'road_closed', issue_subtype: 'barrier_gate', location, description: null, road_name: null, ...extra });

  it('analyses a report once however often its message is delivered: a duplicate delivery is a no-op', async () => {
    const { id } = await file(GOWER_STREET);
    const first = await analysed(id);
    expect(await analyseEntries(id)).toHaveLength(1);

    // The same message twice more through the queue, and twice in one batch straight to the consumer.
    const sqs = sqsClient();
    await sqs.send(new SendMessageBatchCommand({
      QueueUrl: queueUrl('reportAnalysis'),
      Entries: [{ Id: 'a', MessageBody: analysisMessage(id) }, { Id: 'b', MessageBody: analysisMessage(id) }],
    }));
    sqs.destroy();
    const record = (messageId: string) => ({
      messageId,
      receiptHandle: messageId,
      body: analysisMessage(id),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:spoke-report-analysis',
      awsRegion: 'us-east-1',
    });
    const event: SQSEvent = { Records: [record('m1'), record('m2')] };
    const context = lambdaContext('report-analysis', 30) as Context;
    const answer = await invoke(context, () => analysisHandler(event, context));
    expect(answer).toEqual({ batchItemFailures: [] });
    const queue = platform.queues.get(localQueueName('reportAnalysis'))!;
    await until(async () => queue.counts().visible + queue.counts().inFlight === 0);

    const after = (await getReport(id))!;
    expect(after.updated_at).toBe(first.updated_at);
    expect(after.summary).toBe(first.summary);
    expect(await analyseEntries(id)).toHaveLength(1);
  });

  it('retries a report whose city graph is missing, and analyses it once the graph is there', async () => {
    const logs = captureLogs();
    let id: string;
    let outcomes: Record<string, unknown>[];
    try {
      ({ id } = await file(OAKLAND));
      // The first delivery fails (no graph for the Bay Area yet) and the message comes back.
      await until(async () => logs.lines().some((line) => line.message === 'report analysis failed'));
      expect((await getReport(id))!.status).toBe('received');
      await prepareLocalGraphs(['sf-bay'], () => undefined);
      await analysed(id);
      outcomes = logs.lines().filter((line) => line.message === 'report analysis' && line.reportId === id);
    } finally {
      logs.stop();
    }
    const report = (await getReport(id))!;
    expect(report.analysis!.road).not.toBeNull();
    expect(report.summary).toMatch(/San Francisco Bay Area/);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.receives).toBeGreaterThanOrEqual(2);
    expect(await analyseEntries(id)).toHaveLength(1);
  });

  it('on the last try analyses a report without a location rather than lose it to the dead-letter queue', async () => {
    const { id } = await file(WESTWOOD);
    const report = await until(async () => {
      const found = await getReport(id);
      return found?.status === 'in_review' ? found : undefined;
    }, (queues.reportAnalysis.maxReceiveCount + 2) * VISIBILITY_SECONDS * 1000 + 20_000);
    expect(report.analysis).toMatchObject({ road: null, unlocated: 'no_graph' });
    expect(report.summary).toBe("Road closed (barrier or gate) in Los Angeles, not located on a road: the city's map was unavailable; classified automatically; awaiting review.");
    const deadLetters = platform.queues.get(`${localQueueName('reportAnalysis')}-dlq`)!;
    expect(deadLetters.bodies()).not.toContain(analysisMessage(id));
  });

  it('sends a poison message to the dead-letter queue after maxReceiveCount tries, while the rest of its batches succeed', async () => {
    const poison = ['not json at all', JSON.stringify({ report: 'no id' }), analysisMessage(randomUUID())];
    const { id } = await file(GOWER_STREET, { issue_type: 'road_unsafe', issue_subtype: 'poor_bike_lane' });
    const sqs = sqsClient();
    for (const body of poison) await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl('reportAnalysis'), MessageBody: body }));
    sqs.destroy();
    await analysed(id);
    const deadLetters = platform.queues.get(`${localQueueName('reportAnalysis')}-dlq`)!;
    await until(async () => poison.every((body) => deadLetters.bodies().includes(body)), (queues.reportAnalysis.maxReceiveCount + 3) * VISIBILITY_SECONDS * 1000 + 20_000);
    expect(deadLetters.bodies()).not.toContain(analysisMessage(id));
    const queue = platform.queues.get(localQueueName('reportAnalysis'))!;
    expect(queue.bodies().filter((body) => poison.includes(body))).toEqual([]);
  });

  describe('a crash between the write and the enqueue', () => {
    let blackHole: Server;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      // An SQS endpoint that accepts connections and never answers: the submitting function
      // writes the report, then waits on the enqueue, where the test kills it.
      blackHole = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    });

    /**
     * Runs the submission function in a child process whose queue never answers, waits until the
     * report it files (described `marker`) is stored, and kills it there: after its write, before
     * its enqueue, and before an answer under an Idempotency-Key is recorded.
     */
    async function submitThenKill(submission: Submission, marker: string): Promise<ReportItem> {
      const address = blackHole.address() as { port: number };
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/report-submitter.ts'], {
        cwd: projectRoot,
        env: {
          ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'AWS_LAMBDA_MAX_CONCURRENCY')),
          [queues.reportAnalysis.envVar]: `http://127.0.0.1:${address.port}/000000000000/spoke-report-analysis`,
          SUBMISSION: JSON.stringify(submission),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_, signal) => resolve(signal)));

      // The report is in DynamoDB with its outbox marker: kill the function before it enqueues.
      const stored = await until(async () => {
        if (child.exitCode !== null) throw new Error(`The submitter ended before it was killed: ${output}`);
        const pending = await reportsDueInOutbox('9999', 100);
        return pending.find((report) => report.description === marker);
      }, 45_000);
      child.kill('SIGKILL');
      expect(await exited, `the submitter was still running when killed; it wrote: ${output}`).toBe('SIGKILL');
      expect(output).not.toMatch(/statusCode/);
      return stored;
    }

    it('strands nothing: the sweeper enqueues the report after the grace period and it is analysed', async () => {
      const marker = `crash-${randomUUID()}`;
      const body = { issue_type: 'road_closed', issue_subtype: 'temporary_closure', location: GOWER_STREET, description: marker };
      const stored = await submitThenKill({ body, authorizer }, marker);

      // Nothing was enqueued, and nothing moves it yet.
      const queue = platform.queues.get(localQueueName('reportAnalysis'))!;
      expect(queue.bodies()).not.toContain(analysisMessage(stored.report_id));
      expect((await platform.scheduler.runNow('report-outbox')) as SweepResult).toEqual({ due: 0, enqueued: 0 });
      await sleep(300);
      expect((await getReport(stored.report_id))!).toMatchObject({ status: 'received', outbox: 'pending' });

      // Past the grace period, the scheduled sweep (the same handler EventBridge runs) enqueues it.
      const sweep = (await withClockOffset((OUTBOX_GRACE_SECONDS + 1) * 1000, () => platform.scheduler.runNow('report-outbox'))) as SweepResult;
      expect(sweep.enqueued).toBeGreaterThanOrEqual(1);
      const report = await analysed(stored.report_id);
      expect(report.outbox).toBeUndefined();
      expect(report.outbox_due_at).toBeUndefined();
      expect((await auditTrail(stored.report_id)).map((entry) => entry.action)).toEqual(['submit', 'analyse']);
    });

    it('with an Idempotency-Key: a retry answers 409 while the dead request is in progress, then the stored report, and it stays one report', async () => {
      const marker = `crash-keyed-${randomUUID()}`;
      const submission: Submission = {
        body: { issue_type: 'road_closed', issue_subtype: 'temporary_closure', location: GOWER_STREET, description: marker },
        authorizer,
        headers: { 'Idempotency-Key': randomUUID() },
      };
      const stored = await submitThenKill(submission, marker);

      // Until the dead invocation's deadline its answer is "in progress".
      const busy = await submitHere(submission);
      expect(busy.status).toBe(409);
      expect(busy.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');

      // Past it, the retry runs again, finds the report the dead run stored, and answers it.
      await withWallClockAhead(60, async () => {
        const answered = await submitHere(submission);
        expect(answered.status).toBe(200);
        expect(answered.body).toEqual({ id: stored.report_id, status: 'received', created_at: stored.created_at });
        expect(answered.headers['Idempotent-Replayed']).toBeUndefined();
        const replayed = await submitHere(submission);
        expect(replayed).toMatchObject({ status: 200, body: answered.body, headers: { 'Idempotent-Replayed': 'true' } });
        // The same key with another body is refused, from the record and not by filing.
        const reused = await submitHere({ ...submission, body: { ...(submission.body as object), road_name: 'Gower Street' } });
        expect(reused.status).toBe(422);
      });
      expect(await reportsDescribed(marker)).toHaveLength(1);
      expect((await auditTrail(stored.report_id)).map((entry) => entry.action)).toEqual(['submit']);

      // Nothing lost: the sweeper hands it to the analysis as it does any stranded report.
      await withClockOffset((OUTBOX_GRACE_SECONDS + 1) * 1000, () => platform.scheduler.runNow('report-outbox'));
      await analysed(stored.report_id);
    });

    it('a marker that outlived its enqueue (a crash after sending) is only cleared', async () => {
      const { id } = await file(GOWER_STREET, { issue_type: 'unpleasant', issue_subtype: 'too_hilly' });
      const before = await analysed(id);
      await dynamo().send(new UpdateCommand({
        TableName: tableName('reports'),
        Key: { report_id: id },
        UpdateExpression: 'SET outbox = :pending, outbox_due_at = :due',
        ExpressionAttributeValues: { ':pending': 'pending', ':due': '2000-01-01T00:00:00.000Z' },
      }));
      const sweep = (await platform.scheduler.runNow('report-outbox')) as SweepResult;
      expect(sweep.due).toBeGreaterThanOrEqual(1);
      const after = (await getReport(id))!;
      expect(after.outbox).toBeUndefined();
      expect(after.updated_at).toBe(before.updated_at);
      expect(await analyseEntries(id)).toHaveLength(1);
    });
  });

  it('with an Idempotency-Key: when recording the answer fails after the report is stored, the caller still gets it, and a retry never files a second', async () => {
    const marker = `unrecorded-${randomUUID()}`;
    const submission: Submission = {
      body: { issue_type: 'road_unsafe', issue_subtype: 'poor_bike_lane', location: GOWER_STREET, description: marker },
      authorizer,
      headers: { 'Idempotency-Key': randomUUID() },
    };
    // DynamoDB refuses the write that marks the answer complete (and only that one).
    const completion = vi
      .spyOn(DynamoDBPersistenceLayer.prototype as unknown as { _updateRecord: () => Promise<void> }, '_updateRecord')
      .mockRejectedValueOnce(new Error('DynamoDB refused the write'));
    let first;
    try {
      first = await submitHere(submission);
      expect(completion).toHaveBeenCalledTimes(1);
    } finally {
      completion.mockRestore();
    }
    expect(first.status).toBe(200);
    expect((await getReport(first.body.id))!.description).toBe(marker);

    expect((await submitHere(submission)).status).toBe(409);
    await withWallClockAhead(60, async () => {
      const retried = await submitHere(submission);
      expect(retried).toMatchObject({ status: 200, body: first.body });
    });
    expect(await reportsDescribed(marker)).toHaveLength(1);
    await analysed(first.body.id);
  });

  it('queues again, on the next start, reports still waiting when the platform stopped (its queue lives in memory)', async () => {
    // Any instant: the redrive takes every report still 'received', however old.
    const at = '2026-06-15T08:30:00.000Z';
    const waiting: ReportItem = {
      report_id: randomUUID(),
      status: 'received',
      created_at: at,
      updated_at: at,
      issue_type: 'other',
      issue_subtype: null,
      location: [2.3522, 48.8566],
      description: null,
      road_name: null,
      city: null,
      channel: 'api',
      key_id: principal.keyId,
      summary: null,
    };
    // Stored and handed over (no marker), but the message was in the in-memory queue when the platform stopped.
    await insertReport(waiting, auditEntry({ report_id: waiting.report_id, at, actor: 'test', action: 'submit', from: null, to: 'received' }));
    // The same ports: this process's AWS clients keep the endpoints they were created with.
    const port = (url: string) => Number(new URL(url).port);
    const { urls } = platform;
    await platform.stop();
    platformLog.length = 0;
    platform = await startLocalPlatform({
      stateDir,
      ports: { base: port(urls.base), app: port(urls.app), dynamodb: port(urls.dynamodb), s3: port(urls.s3), sqs: port(urls.sqs), idp: port(urls.idp) },
      queueTiming: { visibilityTimeoutSeconds: VISIBILITY_SECONDS, maxBatchingWindowSeconds: 0.05 },
      log: (line) => platformLog.push(line),
    });
    const report = await analysed(waiting.report_id);
    expect(report.summary).toMatch(/outside the covered cities/);
    expect(platformLog.some((line) => /waiting for analysis queued again/.test(line))).toBe(true);
  });
});
