import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RateLimits } from '../auth/principal.ts';
import { dynamo } from '../platform/aws.ts';
import { nowMs } from '../platform/clock.ts';
import { tableName } from '../platform/resources.ts';
import { currentUsage, decide, expiryOf, windowKinds, type BucketUsage, type RateDecision, type WindowKind } from './windows.ts';

/**
 * Rate-limit counters in DynamoDB, exact across any number of containers and fast on one hot
 * key. A bucket is one item; each window's count is an attribute named after the window's start
 * (`m1781509920`, `h1781508600`, `d1781481600`), so a new window is simply a new attribute and
 * nothing ever has to be reset. A request takes its tokens with one conditional UpdateItem that
 * ADDs the cost to the three current windows only if each stays within its limit: DynamoDB applies
 * it atomically, all or nothing, and concurrent requests on the same key queue on the item rather
 * than read, decide and retry. A refused request reads the item once to say when to come back.
 * Each take also REMOVEs the windows just before the current ones; windows left behind by a gap
 * are swept once an item carries more than a few, and TTL deletes a bucket a day after its use.
 */

/** Window attributes an item may carry before the stale ones are swept. */
const SWEEP_AFTER_ATTRIBUTES = 12;

const PREFIX: Record<WindowKind, string> = { minute: 'm', hour: 'h', day: 'd' };
const SECONDS: Record<WindowKind, number> = { minute: 60, hour: 3_600, day: 86_400 };
const WINDOW_ATTRIBUTE = /^[mhd]\d+$/;

/** A bucket of tokens beside the caller's own, with its limits (reports per rider session). */
export interface RateBucket {
  id: string;
  limits: RateLimits;
}

const attributeOf = (kind: WindowKind, start: number): string => `${PREFIX[kind]}${start}`;
const limitOf = (limits: RateLimits, kind: WindowKind): number =>
  kind === 'minute' ? limits.perMinute : kind === 'hour' ? limits.perHour : limits.perDay;

type BucketItem = Record<string, unknown> & { bucket_id: string };

/** The item's counts for the windows current at `nowSeconds`. */
function usageIn(item: BucketItem | undefined, nowSeconds: number): BucketUsage {
  const usage = currentUsage(undefined, nowSeconds);
  for (const kind of windowKinds) {
    const used = item?.[attributeOf(kind, usage[kind].start)];
    usage[kind].used = typeof used === 'number' ? used : 0;
  }
  return usage;
}

async function readBucket(bucket: string): Promise<BucketItem | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket_id: bucket }, ConsistentRead: true }));
  return result.Item as BucketItem | undefined;
}

/** Removes window attributes that are no longer current (their counts can never matter again). */
async function sweep(item: BucketItem, current: BucketUsage): Promise<void> {
  const keep = new Set(windowKinds.map((kind) => attributeOf(kind, current[kind].start)));
  const stale = Object.keys(item).filter((name) => WINDOW_ATTRIBUTE.test(name) && !keep.has(name));
  if (stale.length === 0) return;
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('rateLimits'),
      Key: { bucket_id: item.bucket_id },
      UpdateExpression: `REMOVE ${stale.map((_, i) => `#s${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(stale.map((name, i) => [`#s${i}`, name])),
    }),
  );
}

/** Takes `cost` tokens from the bucket, from every window or from none. */
export async function consumeTokens(bucket: string, limits: RateLimits, cost: number, now: () => number = nowMs): Promise<RateDecision> {
  const first = await attempt(bucket, limits, cost, now() / 1000, false);
  // A refusal read just as a window rolled over would have fitted the new window: take again, once.
  return first ?? (await attempt(bucket, limits, cost, now() / 1000, true))!;
}

/** One conditional take; null when refused but the windows have just made room (try again). */
async function attempt(bucket: string, limits: RateLimits, cost: number, nowSeconds: number, last: boolean): Promise<RateDecision | null> {
  const windows = currentUsage(undefined, nowSeconds);
  // A cost no window can ever hold is refused without touching the table.
  if (windowKinds.some((kind) => cost > limitOf(limits, kind))) return decide(usageIn(await readBucket(bucket), nowSeconds), limits, cost, nowSeconds);

  const names: Record<string, string> = {};
  const values: Record<string, number> = { ':cost': cost, ':expires': expiryOf(windows) };
  const conditions: string[] = [];
  const removed: string[] = [];
  for (const kind of windowKinds) {
    const prefix = PREFIX[kind];
    names[`#${prefix}`] = attributeOf(kind, windows[kind].start);
    names[`#${prefix}p`] = attributeOf(kind, windows[kind].start - SECONDS[kind]);
    values[`:${prefix}max`] = limitOf(limits, kind) - cost;
    conditions.push(`(attribute_not_exists(#${prefix}) OR #${prefix} <= :${prefix}max)`);
    removed.push(`#${prefix}p`);
  }
  try {
    const result = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('rateLimits'),
        Key: { bucket_id: bucket },
        UpdateExpression: `ADD #m :cost, #h :cost, #d :cost SET expires_at = :expires REMOVE ${removed.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    const item = result.Attributes as BucketItem;
    const after = usageIn(item, nowSeconds);
    if (Object.keys(item).filter((name) => WINDOW_ATTRIBUTE.test(name)).length > SWEEP_AFTER_ATTRIBUTES) await sweep(item, after);
    for (const kind of windowKinds) after[kind].used -= cost;
    return decide(after, limits, cost, nowSeconds);
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    // Some window cannot pay: say which, and when it resets.
    const usage = usageIn(await readBucket(bucket), nowSeconds);
    const decision = decide(usage, limits, cost, nowSeconds);
    if (!decision.allowed) return decision;
    return last ? { ...decide(usage, limits, 0, nowSeconds), allowed: false, retryAfterSeconds: 1 } : null;
  }
}

/** The bucket's state without taking tokens, for the headers of requests that cost nothing. */
export async function peekTokens(bucket: string, limits: RateLimits, now: () => number = nowMs): Promise<RateDecision> {
  const nowSeconds = now() / 1000;
  return decide(usageIn(await readBucket(bucket), nowSeconds), limits, 0, nowSeconds);
}
