import { createHash, randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueueDefinition } from '../../platform/resources.ts';
import { invoke } from './invocations.ts';

/**
 * An in-process queue with the SQS semantics the platform relies on: messages are delivered to
 * the consumer in batches as real `SQSEvent`s, stay invisible while a batch is in flight, come
 * back after the visibility timeout when the consumer fails (or for the items it reports in
 * `batchItemFailures`), and move to a dead-letter queue after `maxReceiveCount` receives. Each
 * batch is one invocation of the consumer, run as the Lambda runtime runs it (invocations.ts).
 */

export type SqsConsumer = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

interface StoredMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  sentAt: number;
  firstReceivedAt?: number;
  receiveCount: number;
  visibleAt: number;
  receiptHandle?: string;
}

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

export const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

export interface LocalQueueOptions {
  name: string;
  visibilityTimeoutSeconds: number;
  maxReceiveCount?: number;
  batchSize?: number;
  maxBatchingWindowSeconds?: number;
  deadLetterQueue?: LocalQueue;
  /** Called with consumer errors, which never stop the queue. */
  onConsumerError?: (error: unknown) => void;
}

export class LocalQueue {
  readonly arn: string;
  private readonly messages = new Map<string, StoredMessage>();
  private consumer?: SqsConsumer;
  private timer?: NodeJS.Timeout;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(readonly options: LocalQueueOptions) {
    this.arn = `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${options.name}`;
  }

  static fromDefinition(definition: QueueDefinition, name: string, onConsumerError?: (error: unknown) => void): LocalQueue {
    const deadLetterQueue = new LocalQueue({ name: `${name}-dlq`, visibilityTimeoutSeconds: definition.visibilityTimeoutSeconds });
    return new LocalQueue({
      name,
      visibilityTimeoutSeconds: definition.visibilityTimeoutSeconds,
      maxReceiveCount: definition.maxReceiveCount,
      batchSize: definition.batchSize,
      maxBatchingWindowSeconds: definition.maxBatchingWindowSeconds,
      deadLetterQueue,
      onConsumerError,
    });
  }

  get deadLetterQueue(): LocalQueue | undefined {
    return this.options.deadLetterQueue;
  }

  send(body: string, delaySeconds = 0): { messageId: string; md5OfBody: string } {
    const message: StoredMessage = {
      messageId: randomUUID(),
      body,
      md5OfBody: md5Hex(body),
      sentAt: Date.now(),
      receiveCount: 0,
      visibleAt: Date.now() + delaySeconds * 1000,
    };
    this.messages.set(message.messageId, message);
    this.schedule(delaySeconds * 1000);
    return { messageId: message.messageId, md5OfBody: message.md5OfBody };
  }

  /**
   * ChangeMessageVisibility: the in-flight message with this receipt handle becomes visible
   * `seconds` from now. False when no message holds the handle (SQS's ReceiptHandleIsInvalid).
   */
  changeVisibility(receiptHandle: string, seconds: number): boolean {
    for (const message of this.messages.values()) {
      if (message.receiptHandle !== receiptHandle) continue;
      message.visibleAt = Date.now() + seconds * 1000;
      this.scheduleNextVisibility();
      return true;
    }
    return false;
  }

  /** Messages waiting or in flight, as SQS's approximate counters report them. */
  counts(): { visible: number; inFlight: number } {
    const now = Date.now();
    let visible = 0;
    for (const message of this.messages.values()) if (message.visibleAt <= now) visible++;
    return { visible, inFlight: this.messages.size - visible };
  }

  bodies(): string[] {
    return [...this.messages.values()].map((message) => message.body);
  }

  /** Attaches the consumer Lambda, as an event source mapping would. */
  subscribe(consumer: SqsConsumer): void {
    this.consumer = consumer;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delayMs: number): void {
    if (!this.consumer || this.stopped) return;
    const window = (this.options.maxBatchingWindowSeconds ?? 0) * 1000;
    const wait = Math.max(delayMs, this.visible().length >= this.batchSize() ? 0 : window);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), wait);
    this.timer.unref();
  }

  private batchSize(): number {
    return this.options.batchSize ?? 10;
  }

  private visible(): StoredMessage[] {
    const now = Date.now();
    return [...this.messages.values()].filter((message) => message.visibleAt <= now);
  }

  private poll(): void {
    if (!this.consumer || this.stopped) return;
    this.moveExhaustedToDeadLetter();
    const batch = this.visible().slice(0, this.batchSize());
    if (batch.length > 0) {
      const delivery = this.deliver(batch).finally(() => this.inFlight.delete(delivery));
      this.inFlight.add(delivery);
    }
    this.scheduleNextVisibility();
  }

  private moveExhaustedToDeadLetter(): void {
    const limit = this.options.maxReceiveCount;
    if (!limit) return;
    for (const message of this.visible()) {
      if (message.receiveCount < limit) continue;
      this.messages.delete(message.messageId);
      this.options.deadLetterQueue?.send(message.body);
    }
  }

  private scheduleNextVisibility(): void {
    if (this.messages.size === 0) return;
    const now = Date.now();
    const visibleNow = this.visible().length > 0;
    const next = Math.min(...[...this.messages.values()].map((message) => message.visibleAt));
    this.schedule(visibleNow ? 0 : Math.max(0, next - now));
  }

  private async deliver(batch: StoredMessage[]): Promise<void> {
    const now = Date.now();
    for (const message of batch) {
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + this.options.visibilityTimeoutSeconds * 1000;
      message.receiptHandle = randomUUID();
    }
    const event: SQSEvent = { Records: batch.map((message) => this.toRecord(message)) };
    let failedIds: Set<string>;
    try {
      const context = lambdaContext(`${this.options.name}-consumer`, this.options.visibilityTimeoutSeconds);
      const response = await invoke(context, () => this.consumer!(event, context));
      failedIds = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      this.options.onConsumerError?.(error);
      failedIds = new Set(batch.map((message) => message.messageId));
    }
    for (const message of batch) {
      // A message whose visibility expired and that was handed out again belongs to that delivery now.
      const current = this.messages.get(message.messageId);
      if (!failedIds.has(message.messageId) && current?.receiptHandle === message.receiptHandle) {
        this.messages.delete(message.messageId);
      }
    }
    this.scheduleNextVisibility();
  }

  private toRecord(message: StoredMessage): SQSRecord {
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle!,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: LOCAL_ACCOUNT,
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
      },
      messageAttributes: {},
      md5OfBody: message.md5OfBody,
      eventSource: 'aws:sqs',
      eventSourceARN: this.arn,
      awsRegion: LOCAL_REGION,
    };
  }
}

/** A Lambda context for locally invoked functions. */
export function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
