/**
 * `npx tsx test/bench/rider-search.ts`: what one user search reads from the trigram index
 * (functions/riders/name-search.ts) as the number of riders grows. Riders get generated names
 * (first and last names drawn with a Zipf-like skew from lists of common names, some with
 * accents), their index items are written straight into a local DynamoDB (dynalite), and a fixed
 * set of queries is run against each size, counting the index items DynamoDB reads (ScannedCount)
 * and the pages. Prints a Markdown table for docs/data-model.md.
 *
 * Settings (environment): BENCH_RIDER_COUNTS (default 2000,8000,32000).
 */
import './scratch.ts';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { tableName, tables } from '../../platform/resources.ts';
import { matchingRiderIds, normaliseName, trigramItems } from '../../functions/riders/name-search.ts';
import { functionEnvironment } from '../../lib/local/provision.ts';
import { startDynamo } from '../../lib/local/servers.ts';

const COUNTS = (process.env.BENCH_RIDER_COUNTS ?? '2000,8000,32000').split(',').map(Number);

const FIRST = ['James', 'Mary', 'John', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'William', 'Elizabeth', 'David', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Christopher', 'Nancy', 'Daniel', 'Lisa', 'Matthew', 'Betty', 'Anthony', 'Margaret', 'Mark', 'Sandra', 'Donald', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily', 'Andrew', 'Donna', 'Joshua', 'Michelle', 'José', 'María', 'Zoë', 'Chloé', 'Siobhán', 'Łukasz', 'Ana', 'Mohammed', 'Aisha', 'Wei', 'Yuki', 'Priya', 'Olu', 'Ingrid', 'Anneliese', 'Annabel', 'Hannah', 'Joanna', 'Annie', 'Giovanni'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Núñez', 'Müller', 'Okafor', 'Kowalski', 'Ó Briain', 'Søndergaard', 'Patel', 'Kim', 'Chen', 'Tanaka', 'Johansson', 'Andersson', 'Hansen', 'Rossi', 'Dubois', 'Fernández', 'Nakamura', 'Mensah', 'Ivanova', 'Papadopoulos'];

const QUERIES = ['ann', 'son', 'john', 'smith', 'maria', 'nunez', 'jose garcia', 'hannah lee', 'zoe', 'kowal', 'xyz', 'an s'];

/** Deterministic pseudo-random numbers (mulberry32), so every run indexes the same riders. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Index i of n with a Zipf-like skew: common names are much more common. */
const skewed = (next: () => number, n: number) => Math.min(n - 1, Math.floor(n * next() ** 2.2));

let scanned = 0;
let pages = 0;

async function index(riders: number, next: () => number, from: number): Promise<void> {
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    for (let start = 0; start < batch.length; start += 25) {
      let requests = batch.slice(start, start + 25).map((item) => ({ PutRequest: { Item: item } }));
      while (requests.length) {
        const result = await dynamo().send(new BatchWriteCommand({ RequestItems: { [tableName('riderNameTrigrams')]: requests } }));
        requests = (result.UnprocessedItems?.[tableName('riderNameTrigrams')] ?? []) as typeof requests;
      }
    }
    batch = [];
  };
  for (let rider = from; rider < riders; rider++) {
    const name = `${FIRST[skewed(next, FIRST.length)]} ${LAST[skewed(next, LAST.length)]}`;
    batch.push(...(trigramItems({ idp_user_id: `rider-${String(rider).padStart(7, '0')}`, name }) as unknown as Record<string, unknown>[]));
    if (batch.length >= 2_000) await flush();
  }
  await flush();
}

async function main(): Promise<void> {
  const dynamoServer = await startDynamo(await mkdtemp(join(tmpdir(), 'spoke-search-bench-')), { port: 0, host: '127.0.0.1', service: 'DynamoDB', envVar: 'none' });
  const endpoints = { dynamodb: `http://127.0.0.1:${dynamoServer.port}`, s3: 'http://127.0.0.1:1', sqs: 'http://127.0.0.1:1' };
  Object.assign(process.env, functionEnvironment(endpoints));
  const table = tables.riderNameTrigrams;
  await new DynamoDBClient({}).send(
    new CreateTableCommand({
      TableName: tableName('riderNameTrigrams'),
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: table.partitionKey.name, KeyType: 'HASH' }, { AttributeName: table.sortKey.name, KeyType: 'RANGE' }],
      AttributeDefinitions: [{ AttributeName: table.partitionKey.name, AttributeType: 'S' }, { AttributeName: table.sortKey.name, AttributeType: 'S' }],
    }),
  );
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const output = result.output as { ScannedCount?: number };
      if (output.ScannedCount !== undefined) {
        scanned += output.ScannedCount;
        pages++;
      }
      return result;
    },
    { step: 'initialize', name: 'countScanned' },
  );
  const next = random(42);
  const rows: string[] = [];
  let indexed = 0;
  for (const count of COUNTS) {
    await index(count, next, indexed);
    indexed = count;
    for (const query of QUERIES) {
      scanned = 0;
      pages = 0;
      const started = performance.now();
      const found = await matchingRiderIds(normaliseName(query));
      rows.push(`| ${count.toLocaleString('en')} | \`${query}\` | ${found.length} | ${scanned.toLocaleString('en')} | ${pages} | ${(performance.now() - started).toFixed(0)} |`);
    }
  }
  console.log('| Riders | Query | Results | Index items read | Pages | ms (dynalite) |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  await dynamoServer.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
