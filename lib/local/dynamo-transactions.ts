import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * DynamoDB's `TransactWriteItems` for the local platform. dynalite implements every other
 * operation the platform uses but not transactions, so the local DynamoDB endpoint is this small
 * proxy in front of dynalite: it forwards every request unchanged and carries out
 * `TransactWriteItems` itself with dynalite's own operations, all or nothing:
 *
 * - Isolation: a transaction holds an exclusive lock while every other request through the
 *   endpoint holds a shared one, so no read or write sees a transaction half done (in AWS
 *   DynamoDB gives the same guarantee with its own protocol).
 * - Conditions are evaluated by dynalite: each action runs as the conditional write it is
 *   (`ConditionCheck` as a conditional `UpdateItem` that changes nothing); the first refused
 *   condition undoes the actions already applied from their before-images and the transaction
 *   answers `TransactionCanceledException` with one cancellation reason per action, as DynamoDB does.
 * - DynamoDB's validation rules that matter to callers are kept: 1 to 100 actions, one action
 *   per item.
 *
 * What it does not emulate: idempotency tokens (`ClientRequestToken`), consumed capacity, and
 * durability across a crash of this process in the middle of a transaction (local state only).
 */

const MAX_ACTIONS = 100;
const OPERATIONS = ['Put', 'Update', 'Delete', 'ConditionCheck'] as const;
type Operation = (typeof OPERATIONS)[number];

type AttributeMap = Record<string, unknown>;

interface ActionInput {
  TableName: string;
  Item?: AttributeMap;
  Key?: AttributeMap;
  UpdateExpression?: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}

interface Action {
  operation: Operation;
  input: ActionInput;
  key: AttributeMap;
}

/** An error DynamoDB would answer: its `__type` short name and message. */
class DynamoFault extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** FIFO readers-writer lock: transactions exclusive, every other request shared. */
class ReadWriteLock {
  private readers = 0;
  private writing = false;
  private readonly waiting: { exclusive: boolean; grant: () => void }[] = [];

  acquire(exclusive: boolean): Promise<() => void> {
    return new Promise((resolve) => {
      this.waiting.push({
        exclusive,
        grant: () => {
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            if (exclusive) this.writing = false;
            else this.readers--;
            this.dispatch();
          });
        },
      });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.waiting.length && !this.writing) {
      const next = this.waiting[0]!;
      if (next.exclusive) {
        if (this.readers > 0) return;
        this.writing = true;
      } else {
        this.readers++;
      }
      this.waiting.shift();
      next.grant();
    }
  }
}

const TARGET_PREFIX = 'DynamoDB_20120810.';

function requestBody(body: Buffer): { TransactItems?: unknown } {
  try {
    return JSON.parse(body.toString('utf8') || '{}') as { TransactItems?: unknown };
  } catch {
    throw new DynamoFault('SerializationException', 'The request body is not JSON');
  }
}

export interface TransactionProxy {
  readonly listener: (request: IncomingMessage, response: ServerResponse) => void;
  close(): void;
}

/** dynalite at `upstream`, called with the caller's (unchecked) signature headers. */
class Dynalite {
  private readonly keySchemas = new Map<string, string[]>();

  constructor(
    private readonly upstream: { host: string; port: number },
    readonly agent: Agent,
  ) {}

  /** Sends one operation as it is. */
  private send(headers: IncomingHttpHeaders, operation: string, body: unknown): Promise<{ status: number; payload: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const text = JSON.stringify(body);
      const outgoing = httpRequest(
        {
          ...this.upstream,
          method: 'POST',
          path: '/',
          agent: this.agent,
          headers: {
            authorization: headers.authorization ?? '',
            'x-amz-date': headers['x-amz-date'] ?? '',
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': `${TARGET_PREFIX}${operation}`,
            'content-length': Buffer.byteLength(text),
          },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            resolve({ status: incoming.statusCode ?? 500, payload: raw ? (JSON.parse(raw) as Record<string, unknown>) : {} });
          });
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(text);
    });
  }

  /** One operation's answer; DynamoDB's error, as a `DynamoFault`, when it fails. */
  async call(headers: IncomingHttpHeaders, operation: string, body: unknown): Promise<Record<string, unknown>> {
    const { status, payload } = await this.send(headers, operation, body);
    if (status !== 200) {
      const type = String(payload.__type ?? 'InternalFailure').split('#').pop()!;
      throw new DynamoFault(type, String(payload.message ?? payload.Message ?? type), status);
    }
    return payload;
  }

  /** The names of a table's key attributes, asked once per table. */
  async keyNames(headers: IncomingHttpHeaders, table: string): Promise<string[]> {
    const known = this.keySchemas.get(table);
    if (known) return known;
    const described = (await this.call(headers, 'DescribeTable', { TableName: table })) as { Table: { KeySchema: { AttributeName: string }[] } };
    const names = described.Table.KeySchema.map((element) => element.AttributeName);
    this.keySchemas.set(table, names);
    return names;
  }

  /** Carries out one action as the conditional write it is. */
  apply(headers: IncomingHttpHeaders, action: Action): Promise<unknown> {
    const { input } = action;
    switch (action.operation) {
      case 'Put':
        return this.call(headers, 'PutItem', { TableName: input.TableName, Item: input.Item, ...expressionParts(input) });
      case 'Update':
        return this.call(headers, 'UpdateItem', {
          TableName: input.TableName,
          Key: action.key,
          ...(input.UpdateExpression ? { UpdateExpression: input.UpdateExpression } : {}),
          ...expressionParts(input),
        });
      case 'Delete':
        return this.call(headers, 'DeleteItem', { TableName: input.TableName, Key: action.key, ...expressionParts(input) });
      case 'ConditionCheck':
        // An update without an update expression changes nothing but checks the condition.
        return this.call(headers, 'UpdateItem', { TableName: input.TableName, Key: action.key, ...expressionParts(input) });
    }
  }

  /** Puts an action's item back as it was before (or removes it, if there was none). */
  restore(headers: IncomingHttpHeaders, action: Action, before: AttributeMap | undefined): Promise<unknown> {
    return before
      ? this.call(headers, 'PutItem', { TableName: action.input.TableName, Item: before })
      : this.call(headers, 'DeleteItem', { TableName: action.input.TableName, Key: action.key });
  }
}

const expressionParts = (input: ActionInput) => ({
  ...(input.ConditionExpression ? { ConditionExpression: input.ConditionExpression } : {}),
  ...(input.ExpressionAttributeNames ? { ExpressionAttributeNames: input.ExpressionAttributeNames } : {}),
  ...(input.ExpressionAttributeValues ? { ExpressionAttributeValues: input.ExpressionAttributeValues } : {}),
});

/** A transaction's actions, checked as DynamoDB checks them: 1 to 100, exactly one operation each, one per item. */
async function parseActions(dynalite: Dynalite, headers: IncomingHttpHeaders, body: { TransactItems?: unknown }): Promise<Action[]> {
  const items = body.TransactItems;
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_ACTIONS) {
    throw new DynamoFault('ValidationException', `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length between 1 and ${MAX_ACTIONS}`);
  }
  const actions: Action[] = [];
  const seen = new Set<string>();
  for (const entry of items as Record<string, ActionInput>[]) {
    const operations = OPERATIONS.filter((operation) => entry[operation]);
    if (operations.length !== 1) throw new DynamoFault('ValidationException', 'Each TransactItem must contain exactly one of Put, Update, Delete or ConditionCheck');
    const operation = operations[0]!;
    const input = entry[operation]!;
    let key: AttributeMap;
    if (operation === 'Put') {
      if (!input.Item) throw new DynamoFault('ValidationException', 'Put requires Item');
      const names = await dynalite.keyNames(headers, input.TableName);
      key = Object.fromEntries(names.map((name) => [name, input.Item![name]]));
      if (Object.values(key).some((value) => value === undefined)) {
        throw new DynamoFault('ValidationException', 'One or more parameter values were invalid: Missing the key in the item');
      }
    } else {
      if (!input.Key) throw new DynamoFault('ValidationException', `${operation} requires Key`);
      key = input.Key;
    }
    const identity = `${input.TableName}\u0000${JSON.stringify(Object.entries(key).sort(([a], [b]) => a.localeCompare(b)))}`;
    if (seen.has(identity)) throw new DynamoFault('ValidationException', 'Transaction request cannot include multiple operations on one item');
    seen.add(identity);
    actions.push({ operation, input, key });
  }
  return actions;
}

/** DynamoDB's answer to a transaction whose action `failed` found its condition false: one reason per action. */
function cancellation(actions: readonly Action[], before: readonly (AttributeMap | undefined)[], failed: number): DynamoFault {
  const reasons = actions.map((candidate, position) => {
    if (position !== failed) return { Code: 'None' };
    const old = before[position];
    return {
      Code: 'ConditionalCheckFailed',
      Message: 'The conditional request failed',
      ...(candidate.input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && old ? { Item: old } : {}),
    };
  });
  return new DynamoFault(
    'TransactionCanceledException',
    `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
    400,
    { CancellationReasons: reasons },
  );
}

/** `TransactWriteItems`, all or nothing, under the exclusive lock. */
async function transactWrite(dynalite: Dynalite, lock: ReadWriteLock, headers: IncomingHttpHeaders, body: { TransactItems?: unknown }): Promise<Record<string, unknown>> {
  const actions = await parseActions(dynalite, headers, body);
  const release = await lock.acquire(true);
  try {
    const before: (AttributeMap | undefined)[] = [];
    for (const action of actions) {
      const found = (await dynalite.call(headers, 'GetItem', { TableName: action.input.TableName, Key: action.key, ConsistentRead: true })) as { Item?: AttributeMap };
      before.push(found.Item);
    }
    const applied: number[] = [];
    for (const [index, action] of actions.entries()) {
      try {
        await dynalite.apply(headers, action);
      } catch (error) {
        for (const done of applied.reverse()) await dynalite.restore(headers, actions[done]!, before[done]);
        if (error instanceof DynamoFault && error.type === 'ConditionalCheckFailedException') throw cancellation(actions, before, index);
        throw error;
      }
      if (action.operation === 'ConditionCheck') await dynalite.restore(headers, action, before[index]);
      else applied.push(index);
    }
    return {};
  } finally {
    release();
  }
}

function reply(response: ServerResponse, status: number, payload: unknown): void {
  const text = JSON.stringify(payload);
  response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

/** An HTTP server's request listener: dynalite's own, which the endpoint calls in process. */
export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The request listener of the local DynamoDB endpoint, in front of dynalite: every operation but
 * `TransactWriteItems` goes, as it came, to dynalite's own request listener `store` in this
 * process (no second HTTP round trip), and a transaction's steps to dynalite at `upstream`.
 */
export function transactionProxy(upstream: { host: string; port: number }, store: RequestListener): TransactionProxy {
  const dynalite = new Dynalite(upstream, new Agent({ keepAlive: true }));
  const lock = new ReadWriteLock();

  /**
   * Any other operation, handed to dynalite as it came, under a shared lock held until its answer
   * is sent. dynalite reads the body again from a stream of its own: it throws on a request
   * stream's error, and a caller that hangs up must not end the platform.
   */
  const forward = async (request: IncomingMessage, response: ServerResponse, body: Buffer) => {
    const release = await lock.acquire(false);
    response.once('finish', release);
    response.once('close', release);
    const received = Object.assign(Readable.from(body.length ? [body] : []), { headers: request.headers, method: request.method, url: request.url });
    store(received as unknown as IncomingMessage, response);
  };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (request.headers['x-amz-target'] !== `${TARGET_PREFIX}TransactWriteItems`) {
        void forward(request, response, body);
        return;
      }
      // In a promise, so a body that is not JSON is DynamoDB's 400 and not an exception in this event handler.
      Promise.resolve()
        .then(() => transactWrite(dynalite, lock, request.headers, requestBody(body)))
        .then((result) => reply(response, 200, result))
        .catch((error: unknown) => {
          const fault = error instanceof DynamoFault ? error : new DynamoFault('InternalServerError', (error as Error).message, 500);
          reply(response, fault.status, { __type: `com.amazonaws.dynamodb.v20120810#${fault.type}`, message: fault.message, ...fault.extra });
        });
    });
  };

  return { listener, close: () => dynalite.agent.destroy() };
}
