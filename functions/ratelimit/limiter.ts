import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { RateLimits } from '../../platform/plans.ts';
import { dynamo, dynamoReusingMiddleware } from '../../platform/aws.ts';
import { nowMs } from '../../platform/clock.ts';
import { tableName } from '../../platform/resources.ts';
import { currentUsage, decide, expiryOf, windowKinds, type BucketUsage, type RateDecision, type WindowKind } from './windows.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

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
 * An endpoint with a stricter limit of its own keeps its windows in the same item
 * (`<scope>.m...`), and a request there pays both sets in the same update.
 */

/** Stale window attributes an item may carry before they are swept (with the three current ones, an item stays under 13). */
const SWEEP_AFTER_STALE = 9;

const PREFIX: Record<WindowKind, string> = { minute: 'm', hour: 'h', day: 'd' };
const SECONDS: Record<WindowKind, number> = { minute: 60, hour: 3_600, day: 86_400 };
/** `m1781509920`, or in an endpoint's own windows `multi-modal.m1781509920`. */
const WINDOW_ATTRIBUTE = /^(?:[a-z0-9-]+\.)?([mhd])(\d+)$/;

/**
 * Windows of their own that one endpoint keeps in the caller's item, beside the caller's general
 * windows: a request there pays both, in the same conditional update (multi-modal's stricter
 * limit, functions/multimodal/limits.ts).
 */
export interface RateScope {
  /** Names the endpoint's windows: lower-case letters, digits and hyphens. */
  scope: string;
  limits: RateLimits;
}

interface Windows {
  /** Attribute prefix: '' for the caller's own windows, `<scope>.` for an endpoint's. */
  prefix: string;
  limits: RateLimits;
}

const attributeOf = (windows: Windows, kind: WindowKind, start: number): string => `${windows.prefix}${PREFIX[kind]}${start}`;
const limitOf = (limits: RateLimits, kind: WindowKind): number =>
  kind === 'minute' ? limits.perMinute : kind === 'hour' ? limits.perHour : limits.perDay;

type BucketItem = Record<string, unknown> & { bucket_id: string };

function windowsOf(limits: RateLimits, scoped: RateScope | null): Windows[] {
  if (scoped && !/^[a-z0-9-]+$/.test(scoped.scope)) throw new Error(`Rate scope ${scoped.scope} must be lower-case letters, digits and hyphens`);
  return [{ prefix: '', limits }, ...(scoped ? [{ prefix: `${scoped.scope}.`, limits: scoped.limits }] : [])];
}

/** The item's counts for the windows current at `nowSeconds`. */
function usageIn(item: BucketItem | undefined, windows: Windows, nowSeconds: number): BucketUsage {
  const usage = currentUsage(undefined, nowSeconds);
  for (const kind of windowKinds) {
    const used = item?.[attributeOf(windows, kind, usage[kind].start)];
    usage[kind].used = typeof used === 'number' ? used : 0;
  }
  return usage;
}

/**
 * One decision over several sets of windows: allowed only if every set allows, reported by the
 * set with the fewest tokens left (or the one that refused), with the longest wait.
 */
function combine(decisions: readonly RateDecision[]): RateDecision {
  const refused = decisions.filter((decision) => !decision.allowed);
  if (refused.length === 0) return decisions.reduce((tightest, decision) => (decision.report.remaining < tightest.report.remaining ? decision : tightest));
  const longest = refused.reduce((worst, decision) => ((decision.retryAfterSeconds ?? 0) > (worst.retryAfterSeconds ?? 0) ? decision : worst));
  const tooBig = refused.find((decision) => decision.exceedsWindow);
  return { ...longest, ...(tooBig ? { exceedsWindow: tooBig.exceedsWindow } : {}) };
}

const decideAll = (item: BucketItem | undefined, sets: readonly Windows[], cost: number, nowSeconds: number): RateDecision =>
  combine(sets.map((windows) => decide(usageIn(item, windows, nowSeconds), windows.limits, cost, nowSeconds)));

async function readBucket(bucket: string): Promise<BucketItem | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket_id: bucket }, ConsistentRead: true }));
  return result.Item as BucketItem | undefined;
}

/** Window attributes of the item that are no longer current, whichever set of windows they belong to. */
function staleWindows(item: BucketItem, nowSeconds: number): string[] {
  const current = currentUsage(undefined, nowSeconds);
  const startOf: Record<string, number> = { m: current.minute.start, h: current.hour.start, d: current.day.start };
  return Object.keys(item).filter((name) => {
    const window = WINDOW_ATTRIBUTE.exec(name);
    return window !== null && Number(window[2]) !== startOf[window[1]!];
  });
}

/** Removes window attributes that are no longer current (their counts can never matter again). */
async function sweep(item: BucketItem, stale: readonly string[]): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('rateLimits'),
      Key: { bucket_id: item.bucket_id },
      UpdateExpression: `REMOVE ${stale.map((_, i) => `#s${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(stale.map((name, i) => [`#s${i}`, name])),
    }),
  );
}

/**
 * Takes `cost` tokens from the bucket, from every window or from none; with `scoped`, also from
 * the endpoint's own windows in the same item, all in one conditional update.
 */
export async function consumeTokens(
  bucket: string,
  limits: RateLimits,
  cost: number,
  now: () => number = nowMs,
  scoped: RateScope | null = null,
): Promise<RateDecision> {
  const sets = windowsOf(limits, scoped);
  const first = await attempt(bucket, sets, cost, now() / 1000, false);
  // A refusal read just as a window rolled over would have fitted the new window: take again, once.
  return first ?? (await attempt(bucket, sets, cost, now() / 1000, true))!;
}

/** One conditional take; null when refused but the windows have just made room (try again). */
async function attempt(bucket: string, sets: readonly Windows[], cost: number, nowSeconds: number, last: boolean): Promise<RateDecision | null> {
  const windows = currentUsage(undefined, nowSeconds);
  // A cost no window can ever hold is refused without touching the table.
  if (sets.some((set) => windowKinds.some((kind) => cost > limitOf(set.limits, kind)))) return decideAll(await readBucket(bucket), sets, cost, nowSeconds);

  const names: Record<string, string> = {};
  const values: Record<string, number> = { ':cost': cost, ':expires': expiryOf(windows) };
  const added: string[] = [];
  const conditions: string[] = [];
  const removed: string[] = [];
  sets.forEach((set, index) => {
    for (const kind of windowKinds) {
      const name = `#w${index}${PREFIX[kind]}`;
      names[name] = attributeOf(set, kind, windows[kind].start);
      names[`${name}p`] = attributeOf(set, kind, windows[kind].start - SECONDS[kind]);
      values[`:w${index}${PREFIX[kind]}max`] = limitOf(set.limits, kind) - cost;
      added.push(`${name} :cost`);
      // A comparison with an attribute the item lacks is false, so NOT `>` admits a window not yet
      // started as `attribute_not_exists(...) OR ... <=` would, with one comparison to evaluate.
      conditions.push(`NOT ${name} > :w${index}${PREFIX[kind]}max`);
      removed.push(`${name}p`);
    }
  });
  try {
    // Every request's call: on the client that reuses its middleware (platform/aws.ts).
    const result = await dynamoReusingMiddleware().send(
      new UpdateItemCommand({
        TableName: tableName('rateLimits'),
        Key: marshall({ bucket_id: bucket }),
        UpdateExpression: `ADD ${added.join(', ')} SET expires_at = :expires REMOVE ${removed.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: marshall(values),
        ReturnValues: 'ALL_NEW',
      }),
    );
    const item = unmarshall(result.Attributes!) as BucketItem;
    const stale = staleWindows(item, nowSeconds);
    if (stale.length > SWEEP_AFTER_STALE) await sweep(item, stale);
    return combine(
      sets.map((set) => {
        const before = usageIn(item, set, nowSeconds);
        for (const kind of windowKinds) before[kind].used -= cost;
        return decide(before, set.limits, cost, nowSeconds);
      }),
    );
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    // Some window cannot pay: say which, and when it resets.
    const item = await readBucket(bucket);
    const decision = decideAll(item, sets, cost, nowSeconds);
    if (!decision.allowed) return decision;
    return last ? { ...decideAll(item, sets, 0, nowSeconds), allowed: false, retryAfterSeconds: 1 } : null;
  }
}

/** The bucket's state without taking tokens, for the headers of requests that cost nothing. */
export async function peekTokens(bucket: string, limits: RateLimits, now: () => number = nowMs, scoped: RateScope | null = null): Promise<RateDecision> {
  const nowSeconds = now() / 1000;
  return decideAll(await readBucket(bucket), windowsOf(limits, scoped), 0, nowSeconds);
}
