import { setTimeout as sleep } from 'node:timers/promises';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './aws.ts';

/**
 * Reads many items of one table by key: BatchGetItem in chunks of 100 (its limit), asking again
 * for the keys DynamoDB leaves unprocessed under load, with a short backoff. Items come back in
 * no particular order; keys without an item are simply missing.
 */

const BATCH_LIMIT = 100;
const MAX_ROUNDS = 6;

export async function batchGetItems<T>(table: string, keys: readonly Record<string, unknown>[], options: { consistent?: boolean } = {}): Promise<T[]> {
  const items: T[] = [];
  for (let start = 0; start < keys.length; start += BATCH_LIMIT) {
    let pending = keys.slice(start, start + BATCH_LIMIT);
    for (let round = 0; pending.length > 0; round++) {
      if (round === MAX_ROUNDS) throw new Error(`BatchGetItem left keys of ${table} unprocessed ${MAX_ROUNDS} times`);
      if (round > 0) await sleep(25 * 2 ** round);
      const result = await dynamo().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: options.consistent ?? false } } }));
      items.push(...((result.Responses?.[table] ?? []) as T[]));
      pending = (result.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return items;
}
