import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalQueue } from './queue.ts';
import { md5Hex } from './queue.ts';

/**
 * The SQS wire protocol (AWS JSON 1.0) for the operations the platform's functions call, served
 * from the in-process queues. Functions keep using `SQSClient`; locally its endpoint points here.
 */

type Queues = ReadonlyMap<string, LocalQueue>;

interface SqsError {
  status: number;
  type: string;
  message: string;
}

const queueMissing = (url: unknown): SqsError => ({
  status: 400,
  type: 'com.amazonaws.sqs#QueueDoesNotExist',
  message: `The specified queue does not exist: ${String(url)}`,
});

function queueFor(queues: Queues, url: unknown): LocalQueue | SqsError {
  const name = typeof url === 'string' ? url.split('/').pop() : undefined;
  return (name && queues.get(name)) || queueMissing(url);
}

const isError = (value: unknown): value is SqsError => typeof value === 'object' && value !== null && 'type' in value;

type Operation = (queues: Queues, input: Record<string, unknown>, baseUrl: string) => unknown;

const operations: Record<string, Operation> = {
  SendMessage: (queues, input) => {
    const queue = queueFor(queues, input.QueueUrl);
    if (isError(queue)) return queue;
    if (typeof input.MessageBody !== 'string' || input.MessageBody.length === 0) {
      return { status: 400, type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'MessageBody is required' };
    }
    const sent = queue.send(input.MessageBody, Number(input.DelaySeconds ?? 0));
    return { MessageId: sent.messageId, MD5OfMessageBody: sent.md5OfBody };
  },
  SendMessageBatch: (queues, input) => {
    const queue = queueFor(queues, input.QueueUrl);
    if (isError(queue)) return queue;
    const entries = (input.Entries ?? []) as { Id: string; MessageBody: string; DelaySeconds?: number }[];
    return {
      Successful: entries.map((entry) => {
        const sent = queue.send(entry.MessageBody, Number(entry.DelaySeconds ?? 0));
        return { Id: entry.Id, MessageId: sent.messageId, MD5OfMessageBody: md5Hex(entry.MessageBody) };
      }),
      Failed: [],
    };
  },
  ChangeMessageVisibility: (queues, input) => {
    const queue = queueFor(queues, input.QueueUrl);
    if (isError(queue)) return queue;
    if (!queue.changeVisibility(String(input.ReceiptHandle), Number(input.VisibilityTimeout ?? 0))) {
      return { status: 400, type: 'com.amazonaws.sqs#ReceiptHandleIsInvalid', message: 'The receipt handle is not valid' };
    }
    return {};
  },
  GetQueueUrl: (queues, input, baseUrl) => {
    const queue = queues.get(String(input.QueueName));
    return queue ? { QueueUrl: `${baseUrl}/${queue.arn.split(':')[4]}/${queue.options.name}` } : queueMissing(input.QueueName);
  },
  GetQueueAttributes: (queues, input) => {
    const queue = queueFor(queues, input.QueueUrl);
    if (isError(queue)) return queue;
    const counts = queue.counts();
    return {
      Attributes: {
        QueueArn: queue.arn,
        ApproximateNumberOfMessages: String(counts.visible),
        ApproximateNumberOfMessagesNotVisible: String(counts.inFlight),
        VisibilityTimeout: String(queue.options.visibilityTimeoutSeconds),
      },
    };
  },
};

export function sqsRequestListener(queues: Queues, baseUrl: () => string) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const target = String(request.headers['x-amz-target'] ?? '');
      const name = target.replace(/^AmazonSQS\./, '');
      // The header names the operation: only the table's own entries, never `constructor` or `toString`.
      const operation = Object.hasOwn(operations, name) ? operations[name] : undefined;
      let result: unknown;
      try {
        const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
        result = operation
          ? operation(queues, input, baseUrl())
          : { status: 400, type: 'com.amazonaws.sqs#UnsupportedOperation', message: `${target} is not supported locally` };
      } catch {
        result = { status: 400, type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'Request body is not JSON' };
      }
      const headers = { 'Content-Type': 'application/x-amz-json-1.0' };
      if (isError(result)) {
        response.writeHead(result.status, headers);
        response.end(JSON.stringify({ __type: result.type, message: result.message }));
      } else {
        response.writeHead(200, headers);
        response.end(JSON.stringify(result));
      }
    });
  };
}
