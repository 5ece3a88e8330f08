import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lib/local/provision.ts';
import { startDynamo } from '../../lib/local/servers.ts';

/**
 * `TransactWriteItems` on the local DynamoDB endpoint (lib/local/dynamo-transactions.ts): all
 * actions or none, conditions judged by dynalite, DynamoDB's cancellation reasons, and isolation
 * from concurrent requests.
 */
describe('local DynamoDB transactions', () => {
  let dynamo: Awaited<ReturnType<typeof startDynamo>>;
  let client: DynamoDBDocumentClient;
  const TABLE = 'accounts';

  beforeAll(async () => {
    dynamo = await startDynamo(await mkdtemp(join(tmpdir(), 'spoke-transactions-')), {
      port: 0,
      host: '127.0.0.1',
      service: 'DynamoDB (test)',
      envVar: 'SPOKE_DYNAMODB_PORT',
    });
    const raw = new DynamoDBClient({ endpoint: `http://127.0.0.1:${dynamo.port}`, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
    client = DynamoDBDocumentClient.from(raw);
    await raw.send(
      new CreateTableCommand({
        TableName: TABLE,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      }),
    );
  });
  afterAll(async () => {
    client.destroy();
    await dynamo.close();
  });

  const get = async (id: string) => (await client.send(new GetCommand({ TableName: TABLE, Key: { id }, ConsistentRead: true }))).Item;
  const put = (item: Record<string, unknown>) => client.send(new PutCommand({ TableName: TABLE, Item: item }));

  it('applies every action of a transaction that passes its conditions', async () => {
    await put({ id: 'a1', balance: 10 });
    await put({ id: 'gone1', balance: 0 });
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: TABLE, Key: { id: 'a1' }, UpdateExpression: 'SET balance = balance - :five', ConditionExpression: 'balance >= :five', ExpressionAttributeValues: { ':five': 5 } } },
          { Put: { TableName: TABLE, Item: { id: 'b1', balance: 5 }, ConditionExpression: 'attribute_not_exists(id)' } },
          { Delete: { TableName: TABLE, Key: { id: 'gone1' } } },
          { ConditionCheck: { TableName: TABLE, Key: { id: 'nobody1' }, ConditionExpression: 'attribute_not_exists(id)' } },
        ],
      }),
    );
    expect(await get('a1')).toEqual({ id: 'a1', balance: 5 });
    expect(await get('b1')).toEqual({ id: 'b1', balance: 5 });
    expect(await get('gone1')).toBeUndefined();
    // The condition check leaves no trace of the item it looked at.
    expect(await get('nobody1')).toBeUndefined();
  });

  it('applies nothing when one condition fails, and names it in the cancellation reasons', async () => {
    await put({ id: 'a2', balance: 10 });
    await put({ id: 'b2', balance: 1 });
    const attempt = client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: TABLE, Key: { id: 'a2' }, UpdateExpression: 'SET balance = balance + :one', ExpressionAttributeValues: { ':one': 1 } } },
          { Put: { TableName: TABLE, Item: { id: 'c2', balance: 1 } } },
          {
            Update: {
              TableName: TABLE,
              Key: { id: 'b2' },
              UpdateExpression: 'SET balance = balance - :five',
              ConditionExpression: 'balance >= :five',
              ExpressionAttributeValues: { ':five': 5 },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
        ],
      }),
    );
    const error = await attempt.then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    const reasons = (error as TransactionCanceledException).CancellationReasons!;
    expect(reasons.map((reason) => reason.Code)).toEqual(['None', 'None', 'ConditionalCheckFailed']);
    expect(reasons[2]!.Item).toEqual({ id: { S: 'b2' }, balance: { N: '1' } });
    expect(await get('a2')).toEqual({ id: 'a2', balance: 10 });
    expect(await get('c2')).toBeUndefined();
    expect(await get('b2')).toEqual({ id: 'b2', balance: 1 });
  });

  it('refuses two actions on one item and more than 100 actions, as DynamoDB does', async () => {
    await expect(
      client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: TABLE, Item: { id: 'twice' } } },
            { Delete: { TableName: TABLE, Key: { id: 'twice' } } },
          ],
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException' });
    const many = Array.from({ length: 101 }, (_, index) => ({ Put: { TableName: TABLE, Item: { id: `many-${index}` } } }));
    await expect(client.send(new TransactWriteCommand({ TransactItems: many }))).rejects.toMatchObject({ name: 'ValidationException' });
    expect(await get('twice')).toBeUndefined();
    expect(await get('many-0')).toBeUndefined();
  });

  it('keeps concurrent transfers exact and never shows a reader half a transfer', async () => {
    await put({ id: 'left', balance: 50 });
    await put({ id: 'right', balance: 0 });
    const transfer = () =>
      client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: { TableName: TABLE, Key: { id: 'left' }, UpdateExpression: 'SET balance = balance - :one', ConditionExpression: 'balance >= :one', ExpressionAttributeValues: { ':one': 1 } } },
            { Update: { TableName: TABLE, Key: { id: 'right' }, UpdateExpression: 'SET balance = balance + :one', ExpressionAttributeValues: { ':one': 1 } } },
          ],
        }),
      );
    const sums: number[] = [];
    const reader = async () => {
      for (let round = 0; round < 40; round++) {
        // One request reads both items: it runs entirely before or after any transaction.
        const read = await client.send(new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: [{ id: 'left' }, { id: 'right' }], ConsistentRead: true } } }));
        sums.push(read.Responses![TABLE]!.reduce((sum, item) => sum + (item.balance as number), 0));
      }
    };
    const outcomes = await Promise.allSettled([...Array.from({ length: 60 }, transfer), reader()]);
    const refused = outcomes.slice(0, 60).filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(10);
    for (const outcome of refused) expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(TransactionCanceledException);
    expect(await get('left')).toEqual({ id: 'left', balance: 0 });
    expect(await get('right')).toEqual({ id: 'right', balance: 50 });
    expect(sums).toEqual(Array.from({ length: 40 }, () => 50));
  });
});
