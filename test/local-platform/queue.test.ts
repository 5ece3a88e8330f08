import { createServer } from 'node:http';
import { GetQueueAttributesCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lib/local/provision.ts';
import { LocalQueue } from '../../lib/local/queue.ts';
import { listen, closeServer } from '../../lib/local/servers.ts';
import { sqsRequestListener } from '../../lib/local/sqs-endpoint.ts';
import { until } from '../support/until.ts';


describe('the in-process queue (SQS semantics)', () => {
  const queues: LocalQueue[] = [];
  const queue = (options: Partial<ConstructorParameters<typeof LocalQueue>[0]> = {}) => {
    const deadLetterQueue = new LocalQueue({ name: 'test-dlq', visibilityTimeoutSeconds: 1 });
    const created = new LocalQueue({ name: 'test', visibilityTimeoutSeconds: 0.2, maxReceiveCount: 3, batchSize: 4, maxBatchingWindowSeconds: 0.05, deadLetterQueue, ...options });
    queues.push(created);
    return created;
  };
  afterEach(async () => {
    for (const created of queues.splice(0)) await created.stop();
  });

  it('delivers real SQSEvent batches no larger than the batch size', async () => {
    const events: SQSEvent[] = [];
    const subject = queue();
    for (let index = 0; index < 10; index++) subject.send(JSON.stringify({ index }));
    subject.subscribe(async (event) => {
      events.push(event);
    });
    await until(() => events.flatMap((event) => event.Records).length === 10);
    expect(events.every((event) => event.Records.length <= 4)).toBe(true);
    const record = events[0]!.Records[0]!;
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
      awsRegion: 'us-east-1',
      attributes: { ApproximateReceiveCount: '1', SenderId: '000000000000' },
    });
    expect(record.md5OfBody).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(events.flatMap((event) => event.Records.map((r) => JSON.parse(r.body).index))).size).toBe(10);
    await until(() => subject.counts().visible + subject.counts().inFlight === 0);
  });

  it('redelivers only the items a consumer reports as failed, after the visibility timeout', async () => {
    const subject = queue();
    const seen: { body: string; receiveCount: string; at: number }[] = [];
    subject.send('ok');
    subject.send('flaky');
    subject.subscribe(async (event) => {
      for (const record of event.Records) seen.push({ body: record.body, receiveCount: record.attributes.ApproximateReceiveCount, at: performance.now() });
      const failures = event.Records.filter((record) => record.body === 'flaky' && record.attributes.ApproximateReceiveCount === '1');
      return { batchItemFailures: failures.map((record) => ({ itemIdentifier: record.messageId })) };
    });
    await until(() => seen.length === 3);
    expect(seen.map((entry) => [entry.body, entry.receiveCount])).toEqual([['ok', '1'], ['flaky', '1'], ['flaky', '2']]);
    // The redelivery waits out the visibility timeout: elapsed on the monotonic clock, whatever the hour.
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(190);
    await until(() => subject.counts().visible + subject.counts().inFlight === 0);
  });

  it('retries a throwing consumer and moves the message to the dead-letter queue after maxReceiveCount', async () => {
    const errors: unknown[] = [];
    const subject = queue({ onConsumerError: (error) => errors.push(error) });
    let attempts = 0;
    subject.send('poison');
    subject.subscribe(async () => {
      attempts++;
      throw new Error('analysis failed');
    });
    await until(() => subject.deadLetterQueue!.bodies().length === 1);
    expect(attempts).toBe(3);
    expect(errors).toHaveLength(3);
    expect(subject.deadLetterQueue!.bodies()).toEqual(['poison']);
    expect(subject.counts()).toEqual({ visible: 0, inFlight: 0 });
  });

  it('accepts messages from the AWS SDK through the local SQS endpoint', async () => {
    const subject = queue({ name: 'spoke-report-analysis' });
    const received: string[] = [];
    subject.subscribe(async (event) => {
      received.push(...event.Records.map((record) => record.body));
    });
    const server = createServer();
    const port = await listen(server, { port: 0, host: '127.0.0.1', service: 'sqs', envVar: 'SPOKE_SQS_PORT' });
    server.on('request', sqsRequestListener(new Map([[subject.options.name, subject]]), () => `http://127.0.0.1:${port}`));
    const client = new SQSClient({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
    const queueUrl = `http://127.0.0.1:${port}/000000000000/spoke-report-analysis`;
    try {
      const sent = await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{"report":"r1"}' }));
      expect(sent.MessageId).toMatch(/^[0-9a-f-]{36}$/);
      await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [{ Id: 'a', MessageBody: 'r2' }, { Id: 'b', MessageBody: 'r3' }] }));
      await until(() => received.length === 3);
      expect(received.sort()).toEqual(['r2', 'r3', '{"report":"r1"}']);
      const attributes = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }));
      expect(attributes.Attributes?.QueueArn).toBe(subject.arn);
      await expect(client.send(new SendMessageCommand({ QueueUrl: `http://127.0.0.1:${port}/000000000000/nope`, MessageBody: 'x' }))).rejects.toThrow(/does not exist/);
    } finally {
      client.destroy();
      await closeServer(server);
    }
  });
});
