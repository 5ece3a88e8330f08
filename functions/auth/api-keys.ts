import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { nowMs } from '../../platform/clock.ts';
import { matchesHash, sha256 } from '../../platform/secrets.ts';
import { tableName } from '../../platform/resources.ts';
import { FREE_PLAN_LIMITS, type Plan, type RateLimits } from '../../platform/plans.ts';
import { scanAll } from '../../platform/dynamo-pages.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * API keys look like `spk_<key id>_<secret>`. The key id is public (it names the key in the
 * operator CLI and in logs); the whole key is stored only as a SHA-256 hash. A fast hash is
 * enough because the secret carries 256 random bits: there is nothing to brute-force.
 */

const KEY_PATTERN = /^spk_([a-f0-9]{16})_[A-Za-z0-9_-]{43}$/;

/** Partner source slugs (spec 8): 2-32 characters of a-z, 0-9, `_` and `-`. */
export const SOURCE_SLUG_PATTERN = /^[a-z0-9_-]{2,32}$/;

export type KeyStatus = 'active' | 'revoked';

export interface ApiKeyRecord {
  key_id: string;
  key_hash: string;
  name: string;
  plan: Plan;
  source?: string;
  limits: RateLimits;
  status: KeyStatus;
  created_at: string;
  revoked_at?: string;
  /** The API Gateway API key that meters this key in its usage plan (AWS only). */
  usage_key_id?: string;
  /** The usage-key secret version its usage key was registered under (usage-keys.ts); none: the current one. */
  usage_secret_version?: string;
  /** During a secret rotation: the API Gateway API key it was metered by before, deleted at the rotation's end. */
  previous_usage_key_id?: string;
}

export interface NewApiKey {
  name: string;
  plan: Plan;
  source?: string;
  limits?: RateLimits;
}

export const hashApiKey = (key: string): string => sha256(key);

/** The key id inside a well-formed key, or null for anything that is not one of our keys. */
export function keyIdOf(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

function validateNewKey(input: NewApiKey): RateLimits {
  if (!input.name.trim()) throw new Error('A key needs a name');
  if (input.plan === 'partner' && !(input.source && SOURCE_SLUG_PATTERN.test(input.source))) {
    throw new Error('A partner key needs a source slug of 2-32 characters a-z, 0-9, _ or -');
  }
  if (input.plan !== 'partner' && input.source) throw new Error('Only partner keys carry a source slug');
  if (input.plan === 'free') {
    if (input.limits) throw new Error('Free-plan limits are fixed (10/minute, 100/hour, 1,000/day)');
    return FREE_PLAN_LIMITS;
  }
  const limits = input.limits;
  if (!limits) throw new Error(`A ${input.plan} key needs its agreed limits per minute, hour and day`);
  for (const value of [limits.perMinute, limits.perHour, limits.perDay]) {
    if (!Number.isInteger(value) || value < 1) throw new Error('Limits must be positive integers');
  }
  if (limits.perMinute > limits.perHour || limits.perHour > limits.perDay) {
    throw new Error('Limits must not shrink with a longer window (minute <= hour <= day)');
  }
  return limits;
}

/** Creates a key and returns it with its record. The key itself is shown once and never stored. */
export async function createApiKey(input: NewApiKey, now = new Date()): Promise<{ key: string; record: ApiKeyRecord }> {
  const limits = validateNewKey(input);
  const keyId = randomBytes(8).toString('hex');
  const key = `spk_${keyId}_${randomBytes(32).toString('base64url')}`;
  const record: ApiKeyRecord = {
    key_id: keyId,
    key_hash: hashApiKey(key),
    name: input.name.trim(),
    plan: input.plan,
    ...(input.source ? { source: input.source } : {}),
    limits,
    status: 'active',
    created_at: now.toISOString(),
  };
  await dynamo().send(
    new PutCommand({ TableName: tableName('apiKeys'), Item: record, ConditionExpression: 'attribute_not_exists(key_id)' }),
  );
  return { key, record };
}

export async function getApiKeyRecord(keyId: string): Promise<ApiKeyRecord | null> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName('apiKeys'), Key: { key_id: keyId } }));
  return (result.Item as ApiKeyRecord | undefined) ?? null;
}

/**
 * How long a warm container trusts a key record it has read, or the absence of one, so a
 * partner's steady traffic on one key, or a client repeating an invalid one, costs one key read
 * per container every few seconds instead of one per request. This is also the bound on revocation: a revoked key is refused by every container at most this long
 * after `keys revoke` (docs/operations.md, "Usage plans and API keys"). The rate limiter is not
 * cached: it counts every request in DynamoDB.
 */
export const API_KEY_RECORD_CACHE_MS = 5_000;

/** Records kept at most; beyond it the oldest read goes first. Far above the keys one container sees in a few seconds. */
const MAX_CACHED_RECORDS = 10_000;

/**
 * Key ids found to have no record, kept at most (the oldest miss goes first). Apart from the
 * records, so a flood of invented key ids can evict only other invented ones, never the records
 * of keys in use.
 */
const MAX_CACHED_UNKNOWN_KEY_IDS = 10_000;

interface CachedRecord {
  /** The record, or null: the table had none for the key id. */
  record: ApiKeyRecord | null;
  /** When the read that returned it started, on the clock of the request that made it. */
  readAtMs: number;
}

const cachedRecords = new Map<string, CachedRecord>();
const unknownKeyIds = new Map<string, CachedRecord>();
/** One read per key at a time: requests arriving while a key's record is being read share the read. */
const readsInFlight = new Map<string, Promise<ApiKeyRecord | null>>();

const isFresh = (cached: CachedRecord | undefined, at: number): cached is CachedRecord =>
  cached !== undefined && at >= cached.readAtMs && at - cached.readAtMs < API_KEY_RECORD_CACHE_MS;

function remember(cache: Map<string, CachedRecord>, limit: number, keyId: string, entry: CachedRecord): void {
  if (cache.size >= limit) cache.delete(cache.keys().next().value!);
  cache.set(keyId, entry);
}

/**
 * The key's record as this container last read it, read again once it is
 * `API_KEY_RECORD_CACHE_MS` old (or when the clock reads earlier than the read, as a test's moved
 * clock can). Revoked records are kept like active ones (revocation is final). A key id with no
 * record is remembered as unknown for as long, so a flood repeating an invalid key costs one read
 * per container every `API_KEY_RECORD_CACHE_MS`. That delays no new key: key ids are 64 random
 * bits drawn when the key is created, so no request names one before it exists; only a record
 * restored under an id that was presented while it was missing waits out the bound.
 */
async function recentApiKeyRecord(keyId: string, now: () => number): Promise<ApiKeyRecord | null> {
  const at = now();
  const cached = cachedRecords.get(keyId) ?? unknownKeyIds.get(keyId);
  if (isFresh(cached, at)) return cached.record;
  const pending = readsInFlight.get(keyId);
  if (pending) return pending;
  const read = getApiKeyRecord(keyId)
    .then((record) => {
      cachedRecords.delete(keyId);
      unknownKeyIds.delete(keyId);
      if (record) remember(cachedRecords, MAX_CACHED_RECORDS, keyId, { record, readAtMs: at });
      else remember(unknownKeyIds, MAX_CACHED_UNKNOWN_KEY_IDS, keyId, { record: null, readAtMs: at });
      return record;
    })
    .finally(() => readsInFlight.delete(keyId));
  readsInFlight.set(keyId, read);
  return read;
}

/**
 * The active record the key belongs to, or null. Anything that is not a well-formed key is refused
 * before any read. The stored hash is compared with the presented key's in constant time on every
 * request, cached record or not.
 */
export async function verifyApiKey(key: string, now: () => number = nowMs): Promise<ApiKeyRecord | null> {
  const keyId = keyIdOf(key);
  if (!keyId) return null;
  const record = await recentApiKeyRecord(keyId, now);
  if (!record || record.status !== 'active') return null;
  return matchesHash(key, record.key_hash) ? record : null;
}

export async function listApiKeys(): Promise<ApiKeyRecord[]> {
  const records = await scanAll<ApiKeyRecord>({ TableName: tableName('apiKeys') });
  return records.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/**
 * Revokes a key: the next read of its record refuses it, so every container refuses it within
 * `API_KEY_RECORD_CACHE_MS` (sooner where it has not read the record lately).
 */
export async function revokeApiKey(keyId: string, now = new Date()): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('apiKeys'),
        Key: { key_id: keyId },
        UpdateExpression: 'SET #status = :revoked, revoked_at = :now',
        ConditionExpression: 'attribute_exists(key_id)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}
