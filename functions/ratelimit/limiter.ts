import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RateLimits } from '../auth/principal.ts';
import { dynamo } from '../platform/aws.ts';
import { nowMs } from '../platform/clock.ts';
import { tableName } from '../platform/resources.ts';
import { type BucketUsage, type RateDecision, decide, expiryOf } from './windows.ts';

/**
 * Rate-limit counters in DynamoDB, exact across any number of containers. Each bucket is one
 * item holding all three windows and a version; a request reads it consistently, decides, and
 * writes back only if the version is unchanged (optimistic concurrency). Contention is per key,
 * so conflicts are rare and a retry settles them; the three windows never disagree because they
 * change in the same conditional write.
 */

interface BucketItem extends BucketUsage {
  bucket_id: string;
  version: number;
  expires_at: number;
}

const MAX_ATTEMPTS = 40;

/** A bucket of tokens beside the caller's own, with its limits (reports per rider session). */
export interface RateBucket {
  id: string;
  limits: RateLimits;
}

export class RateLimiterBusyError extends Error {
  constructor(bucket: string) {
    super(`Rate-limit bucket ${bucket} stayed contended after ${MAX_ATTEMPTS} attempts`);
    this.name = 'RateLimiterBusyError';
  }
}

async function readBucket(bucket: string): Promise<BucketItem | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket_id: bucket }, ConsistentRead: true }),
  );
  return result.Item as BucketItem | undefined;
}

/** Takes `cost` tokens from the bucket, all or none. */
export async function consumeTokens(
  bucket: string,
  limits: RateLimits,
  cost: number,
  now: () => number = nowMs,
): Promise<RateDecision> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const stored = await readBucket(bucket);
    const decision = decide(stored, limits, cost, now() / 1000);
    if (!decision.allowed) return decision;
    const item: BucketItem = {
      bucket_id: bucket,
      ...decision.usage,
      version: (stored?.version ?? 0) + 1,
      expires_at: expiryOf(decision.usage),
    };
    try {
      await dynamo().send(
        new PutCommand({
          TableName: tableName('rateLimits'),
          Item: item,
          ConditionExpression: stored ? 'version = :seen' : 'attribute_not_exists(bucket_id)',
          ...(stored ? { ExpressionAttributeValues: { ':seen': stored.version } } : {}),
        }),
      );
      return decision;
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      // Another container wrote first: back off a little, with jitter, and decide again.
      await sleep(Math.random() * Math.min(100, 2 ** attempt));
    }
  }
  throw new RateLimiterBusyError(bucket);
}

/** The bucket's state without taking tokens, for the headers of requests that cost nothing. */
export async function peekTokens(bucket: string, limits: RateLimits, now: () => number = nowMs): Promise<RateDecision> {
  return decide(await readBucket(bucket), limits, 0, now() / 1000);
}
