import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException, CreateTableCommand, DynamoDBClient, ResourceNotFoundException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessDynamoTransport } from '../../lib/local/dynamo-in-process.ts';
import { LOCAL_CREDENTIALS, untilTableActive } from '../../lib/local/provision.ts';
import { startDynamo } from '../../lib/local/servers.ts';

/**
 * The DynamoDB client's transport in the local platform's own thread (lib/local/dynamo-in-process.ts):
 * the same requests and answers as over HTTP to the local endpoint, errors included, with no socket.
 */
describe('DynamoDB calls to the local endpoint in process', () => {
  let dynamo: Awaited<ReturnType<typeof startDynamo>>;
  let overHttp: DynamoDBDocumentClient;
  let inProcess: DynamoDBDocumentClient;
  const TABLE = 'limits';

  beforeAll(async () => {
    dynamo = await startDynamo(await mkdtemp(join(tmpdir(), 'spoke-in-process-')), { port: 0, host: '127.0.0.1', service: 'DynamoDB (test)', envVar: 'SPOKE_DYNAMODB_PORT' });
    // Both clients name the endpoint: the in-process one signs for it as the platform's do, and sends nothing to it.
    const settings = { endpoint: `http://127.0.0.1:${dynamo.port}`, region: 'us-east-1', credentials: LOCAL_CREDENTIALS };
    overHttp = DynamoDBDocumentClient.from(new DynamoDBClient(settings));
    const raw = new DynamoDBClient({ ...settings, requestHandler: inProcessDynamoTransport(dynamo.listener) });
    inProcess = DynamoDBDocumentClient.from(raw);
    await raw.send(
      new CreateTableCommand({
        TableName: TABLE,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: 'key', KeyType: 'HASH' }, { AttributeName: 'window', KeyType: 'RANGE' }],
        AttributeDefinitions: [{ AttributeName: 'key', AttributeType: 'S' }, { AttributeName: 'window', AttributeType: 'S' }],
      }),
    );
    await untilTableActive(raw, TABLE);
  });
  afterAll(async () => {
    overHttp.destroy();
    inProcess.destroy();
    await dynamo.close();
  });

  const take = (client: DynamoDBDocumentClient, max: number) =>
    client.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { key: 'k1', window: 'minute' },
        UpdateExpression: 'ADD #count :one',
        ConditionExpression: 'NOT #count >= :max',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':max': max },
        ReturnValues: 'UPDATED_NEW',
      }),
    );

  it('writes and reads what a client over HTTP reads and writes', async () => {
    await inProcess.send(new PutCommand({ TableName: TABLE, Item: { key: 'k0', window: 'day', note: 'écrit en process', list: [1, 'two'] } }));
    const read = { TableName: TABLE, Key: { key: 'k0', window: 'day' }, ConsistentRead: true };
    expect((await overHttp.send(new GetCommand(read))).Item).toEqual({ key: 'k0', window: 'day', note: 'écrit en process', list: [1, 'two'] });
    expect((await inProcess.send(new GetCommand(read))).Item).toEqual((await overHttp.send(new GetCommand(read))).Item);
    const query = await inProcess.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: '#k = :k', ExpressionAttributeNames: { '#k': 'key' }, ExpressionAttributeValues: { ':k': 'k0' } }));
    expect(query.Items).toHaveLength(1);
  });

  it("answers a conditional update as DynamoDB does, a refusal as the SDK's ConditionalCheckFailedException", async () => {
    expect((await take(inProcess, 2)).Attributes).toEqual({ count: 1 });
    expect((await take(overHttp, 2)).Attributes).toEqual({ count: 2 });
    await expect(take(inProcess, 2)).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    await expect(take(overHttp, 2)).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });

  it("carries the endpoint's own errors and its transactions", async () => {
    await expect(inProcess.send(new GetCommand({ TableName: 'no-such-table', Key: { key: 'a', window: 'b' } }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    const put = (window: string) => ({ Put: { TableName: TABLE, Item: { key: 'k2', window }, ConditionExpression: 'attribute_not_exists(#k)', ExpressionAttributeNames: { '#k': 'key' } } });
    await inProcess.send(new TransactWriteCommand({ TransactItems: [put('a'), put('b')] }));
    const refused = inProcess.send(new TransactWriteCommand({ TransactItems: [put('c'), put('a')] }));
    await expect(refused).rejects.toBeInstanceOf(TransactionCanceledException);
    expect((await overHttp.send(new GetCommand({ TableName: TABLE, Key: { key: 'k2', window: 'c' }, ConsistentRead: true }))).Item).toBeUndefined();
  });
});
