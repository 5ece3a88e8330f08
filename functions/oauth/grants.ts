import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { now, nowSeconds } from '../../platform/clock.ts';
import { tableName } from '../../platform/resources.ts';
import { lifetimes, RECORD_RETENTION_SECONDS } from './config.ts';
import { matchesHash, randomHandle, sha256 } from '../../platform/secrets.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * A grant is what one approved authorization code turns into: the rider's consent for one app,
 * and the family of refresh tokens issued under it. Every access token names its grant (`gid`),
 * and the authorizer reads the grant on each request, so revoking it (code replay, refresh-token
 * reuse, the rider's app revoking its token, the operator revoking the app) stops the whole
 * family at once.
 */

export interface RiderClaims {
  email?: string;
  name?: string;
}

export interface GrantRecord {
  grant_id: string;
  client_id: string;
  /** The rider's identity-provider user id. */
  sub: string;
  scope: string;
  /** What the id_token may say about the rider, captured at sign-in. */
  rider_claims: RiderClaims;
  /** Unix seconds when the rider signed in on the consent screen. */
  auth_time: number;
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at?: string;
  revoked_reason?: string;
  delete_after: number;
}

export interface RefreshTokenRecord {
  token_id: string;
  grant_id: string;
  client_id: string;
  secret_hash: string;
  /** `rotated` once used: presenting it again is reuse, which revokes the family. */
  status: 'active' | 'rotated';
  expires_at: number;
  created_at: string;
  delete_after: number;
}

export const newGrantId = (): string => randomBytes(16).toString('hex');

const grantRetention = () => nowSeconds() + lifetimes.refreshTokenSeconds + RECORD_RETENTION_SECONDS;

/**
 * Stores a new active grant. False when the id is taken, which happens only when a replay of its
 * code revoked the grant before the first exchange got this far: the exchange must then fail.
 */
export async function createGrant(grant: Omit<GrantRecord, 'status' | 'created_at' | 'delete_after'>): Promise<GrantRecord | null> {
  const record: GrantRecord = { ...grant, status: 'active', created_at: now().toISOString(), delete_after: grantRetention() };
  try {
    await dynamo().send(
      new PutCommand({ TableName: tableName('oauthGrants'), Item: record, ConditionExpression: 'attribute_not_exists(grant_id)' }),
    );
    return record;
  } catch (error) {
    if (conditionFailed(error)) return null;
    throw error;
  }
}

export async function getGrant(grantId: string): Promise<GrantRecord | null> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName('oauthGrants'), Key: { grant_id: grantId }, ConsistentRead: true }),
  );
  return (result.Item as GrantRecord | undefined) ?? null;
}

/**
 * Revokes a grant, creating a revoked tombstone if it does not exist yet (a code replayed while
 * its first exchange is still running), so the grant can never become active afterwards.
 */
export async function revokeGrant(grantId: string, reason: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('oauthGrants'),
      Key: { grant_id: grantId },
      UpdateExpression:
        'SET #status = :revoked, revoked_at = if_not_exists(revoked_at, :now), revoked_reason = if_not_exists(revoked_reason, :reason), delete_after = if_not_exists(delete_after, :deleteAfter)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':revoked': 'revoked',
        ':now': now().toISOString(),
        ':reason': reason,
        ':deleteAfter': grantRetention(),
      },
    }),
  );
}

export async function revokeGrantsOfClient(clientId: string, reason: string): Promise<number> {
  let revoked = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName('oauthGrants'),
        IndexName: 'by-client',
        KeyConditionExpression: 'client_id = :client',
        ExpressionAttributeValues: { ':client': clientId },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const grant of (page.Items ?? []) as GrantRecord[]) {
      if (grant.status !== 'active') continue;
      await revokeGrant(grant.grant_id, reason);
      revoked++;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return revoked;
}

/** Refresh tokens look like `spr_<token id>_<secret>`; only a hash of the whole token is kept. */
const REFRESH_TOKEN_PATTERN = /^spr_([0-9a-f]{32})_[A-Za-z0-9_-]{43}$/;

export const looksLikeRefreshToken = (token: string): boolean => REFRESH_TOKEN_PATTERN.test(token);

export async function issueRefreshToken(grant: GrantRecord): Promise<string> {
  const tokenId = randomBytes(16).toString('hex');
  const token = `spr_${tokenId}_${randomHandle(32)}`;
  const expiresAt = nowSeconds() + lifetimes.refreshTokenSeconds;
  const record: RefreshTokenRecord = {
    token_id: tokenId,
    grant_id: grant.grant_id,
    client_id: grant.client_id,
    secret_hash: sha256(token),
    status: 'active',
    expires_at: expiresAt,
    created_at: now().toISOString(),
    delete_after: expiresAt + RECORD_RETENTION_SECONDS,
  };
  await dynamo().send(new PutCommand({ TableName: tableName('oauthRefreshTokens'), Item: record }));
  // The grant lives as long as its newest refresh token can.
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('oauthGrants'),
      Key: { grant_id: grant.grant_id },
      UpdateExpression: 'SET delete_after = :deleteAfter',
      ConditionExpression: 'attribute_exists(grant_id)',
      ExpressionAttributeValues: { ':deleteAfter': grantRetention() },
    }),
  );
  return token;
}

/** The record of a refresh token this platform issued, checked against its stored hash; null otherwise. */
export async function findRefreshToken(token: string): Promise<RefreshTokenRecord | null> {
  const tokenId = REFRESH_TOKEN_PATTERN.exec(token)?.[1];
  if (!tokenId) return null;
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName('oauthRefreshTokens'), Key: { token_id: tokenId }, ConsistentRead: true }),
  );
  const record = result.Item as RefreshTokenRecord | undefined;
  return record && matchesHash(token, record.secret_hash) ? record : null;
}

/** Marks a refresh token used. False if it was already used: a concurrent or repeated use, i.e. reuse. */
export async function markRefreshTokenRotated(tokenId: string): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('oauthRefreshTokens'),
        Key: { token_id: tokenId },
        UpdateExpression: 'SET #status = :rotated, rotated_at = :now',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':rotated': 'rotated', ':active': 'active', ':now': now().toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}
