/**
 * Is one hot item slower than many in the local DynamoDB (dynalite) by itself? 20 conditional
 * `UpdateItem`s in flight, as the rate limiter sends them (ADD with a condition, ALL_NEW), all on
 * one item against spread over 20 items, on a persisted dynalite in this process, no platform:
 *
 *   npx tsx test/bench/dynalite-one-item.ts
 *
 * Waits for the 1-minute load average to fall below 1 first. Quoted in docs/benchmarks.md
 * ("Load on one API key: summary").
 */
import './scratch.ts';
import dynalite from 'dynalite';
import type { Server } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';

while (loadavg()[0]! >= 1) await new Promise((resolve) => setTimeout(resolve, 5000));
console.log('load at start', loadavg()[0]!.toFixed(2));
const directory = await mkdtemp(join(tmpdir(), 'dynalite-one-item-'));
const server = dynalite({ path: directory, createTableMs: 0 }) as unknown as Server;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
const port = (server.address() as { port: number }).port;
const raw = new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
const documents = DynamoDBDocumentClient.from(raw);
await raw.send(
  new CreateTableCommand({
    TableName: 'counters',
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    BillingMode: 'PAY_PER_REQUEST',
  }),
);

/** Updates per second for `total` updates, `inFlight` at a time, over `items` items. */
async function run(items: number, inFlight: number, total: number): Promise<number> {
  let sent = 0;
  const started = performance.now();
  const worker = async () => {
    while (sent < total) {
      const n = sent++;
      await documents.send(
        new UpdateCommand({
          TableName: 'counters',
          Key: { id: `k${n % items}` },
          UpdateExpression: 'ADD c :one',
          ConditionExpression: 'attribute_not_exists(c) OR c <= :max',
          ExpressionAttributeValues: { ':one': 1, ':max': 1e9 },
          ReturnValues: 'ALL_NEW',
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: inFlight }, () => worker()));
  return total / ((performance.now() - started) / 1000);
}

await run(20, 20, 500);
for (let round = 0; round < 2; round++) {
  console.log(`round ${round}: one item ${(await run(1, 20, 2000)).toFixed(0)} updates/s; 20 items ${(await run(20, 20, 2000)).toFixed(0)} updates/s`);
}
server.close();
process.exit(0);
