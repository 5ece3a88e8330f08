import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { now } from '../../platform/clock.ts';
import { tableName } from '../../platform/resources.ts';
import { revokeGrantsOfClient } from './grants.ts';
import { checkRedirectUri } from './redirect-uris.ts';
import { matchesHash, randomHandle, sha256 } from '../../platform/secrets.ts';
import { scanAll } from '../../platform/dynamo-pages.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * The registry of third-party apps (spec 5.5). The operator registers an app with the name the
 * consent screen shows, every redirect URI in full, and whether it is public (no secret: mobile,
 * single-page and desktop apps) or confidential (a server that keeps a secret). The secret is
 * shown once and stored as a SHA-256 hash. Records are read consistently on every request, so a
 * change applies to the next request.
 */

export const clientTypes = ['public', 'confidential'] as const;
export type ClientType = (typeof clientTypes)[number];

export interface OAuthClientRecord {
  client_id: string;
  name: string;
  type: ClientType;
  redirect_uris: string[];
  /** Confidential apps only. */
  secret_hash?: string;
  status: 'active' | 'revoked';
  /**
   * The usage-plan key the authorizer hands API Gateway for requests made with this app's
   * tokens, so the metered `{base_url}` attributes them to the app (not a credential: it never
   * leaves the platform).
   */
  usage_key: string;
  /** The API Gateway API key holding `usage_key` (AWS only). */
  usage_key_id?: string;
  created_at: string;
  updated_at: string;
  secret_rotated_at?: string;
  revoked_at?: string;
}

export interface NewClient {
  name: string;
  type: ClientType;
  redirectUris: string[];
}

const CLIENT_ID_PATTERN = /^spc_[0-9a-f]{20}$/;
const MAX_NAME_LENGTH = 80;

export class ClientRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientRegistrationError';
  }
}

function checkName(name: string): string {
  const trimmed = name.trim();
  // eslint-disable-next-line no-control-regex
  if (!trimmed || trimmed.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new ClientRegistrationError(`The app name must be 1 to ${MAX_NAME_LENGTH} printable characters`);
  }
  return trimmed;
}

function checkRedirectUris(uris: readonly string[]): string[] {
  if (uris.length === 0) throw new ClientRegistrationError('Register at least one redirect URI');
  try {
    for (const uri of uris) checkRedirectUri(uri);
  } catch (error) {
    throw new ClientRegistrationError((error as Error).message);
  }
  return [...new Set(uris)];
}

const newSecret = (): string => `spcs_${randomHandle(32)}`;

export async function createClient(input: NewClient): Promise<{ record: OAuthClientRecord; secret?: string }> {
  const name = checkName(input.name);
  if (!clientTypes.includes(input.type)) throw new ClientRegistrationError('The app type must be public or confidential');
  const redirectUris = checkRedirectUris(input.redirectUris);
  const secret = input.type === 'confidential' ? newSecret() : undefined;
  const timestamp = now().toISOString();
  const record: OAuthClientRecord = {
    client_id: `spc_${randomBytes(10).toString('hex')}`,
    name,
    type: input.type,
    redirect_uris: redirectUris,
    ...(secret ? { secret_hash: sha256(secret) } : {}),
    status: 'active',
    usage_key: `spu_${randomHandle(24)}`,
    created_at: timestamp,
    updated_at: timestamp,
  };
  await dynamo().send(
    new PutCommand({ TableName: tableName('oauthClients'), Item: record, ConditionExpression: 'attribute_not_exists(client_id)' }),
  );
  return { record, ...(secret ? { secret } : {}) };
}

export async function getClient(clientId: string): Promise<OAuthClientRecord | null> {
  if (!CLIENT_ID_PATTERN.test(clientId)) return null;
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName('oauthClients'), Key: { client_id: clientId }, ConsistentRead: true }),
  );
  return (result.Item as OAuthClientRecord | undefined) ?? null;
}

/** The app if it exists and is not revoked. */
export async function getActiveClient(clientId: string): Promise<OAuthClientRecord | null> {
  const client = await getClient(clientId);
  return client?.status === 'active' ? client : null;
}

export async function listClients(): Promise<OAuthClientRecord[]> {
  const records = await scanAll<OAuthClientRecord>({ TableName: tableName('oauthClients') });
  return records.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

async function updateActiveClient(clientId: string, update: string, values: Record<string, unknown>): Promise<OAuthClientRecord> {
  try {
    const result = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('oauthClients'),
        Key: { client_id: clientId },
        UpdateExpression: `${update}, updated_at = :now`,
        ConditionExpression: 'attribute_exists(client_id) AND #status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...values, ':now': now().toISOString(), ':active': 'active' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes as OAuthClientRecord;
  } catch (error) {
    if (conditionFailed(error)) throw new ClientRegistrationError(`No active app with id ${clientId}`);
    throw error;
  }
}

/** Replaces the registered redirect URIs; the next authorization request is checked against the new list. */
export async function updateRedirectUris(clientId: string, redirectUris: string[]): Promise<OAuthClientRecord> {
  return updateActiveClient(clientId, 'SET redirect_uris = :uris', { ':uris': checkRedirectUris(redirectUris) });
}

/** A new secret for a confidential app; the old one stops working at once. Shown once. */
export async function rotateClientSecret(clientId: string): Promise<{ record: OAuthClientRecord; secret: string }> {
  const client = await getActiveClient(clientId);
  if (!client) throw new ClientRegistrationError(`No active app with id ${clientId}`);
  if (client.type !== 'confidential') throw new ClientRegistrationError('Public apps have no secret to rotate');
  const secret = newSecret();
  const record = await updateActiveClient(clientId, 'SET secret_hash = :hash, secret_rotated_at = :now', { ':hash': sha256(secret) });
  return { record, secret };
}

/**
 * Revokes the app for every rider: the app can no longer authenticate, start a login or use a
 * refresh token, and every grant is revoked, so its access tokens stop at the authorizer too
 * (the spec allows them to run out within the hour; stopping them at once is stricter).
 */
export async function revokeClient(clientId: string): Promise<{ record: OAuthClientRecord; grantsRevoked: number }> {
  const existing = await getClient(clientId);
  if (!existing) throw new ClientRegistrationError(`No app with id ${clientId}`);
  // Running it again on a revoked app finishes the grant revocation a failed run left behind.
  const record =
    existing.status === 'active'
      ? await updateActiveClient(clientId, 'SET #status = :revoked, revoked_at = :now', { ':revoked': 'revoked' })
      : existing;
  const grantsRevoked = await revokeGrantsOfClient(clientId, 'app revoked by the operator');
  return { record, grantsRevoked };
}

/** Records where the API Gateway key metering this app lives (AWS only). */
export async function recordUsageKeyId(clientId: string, usageKeyId: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('oauthClients'),
      Key: { client_id: clientId },
      UpdateExpression: 'SET usage_key_id = :id',
      ConditionExpression: 'attribute_exists(client_id)',
      ExpressionAttributeValues: { ':id': usageKeyId },
    }),
  );
}

export function secretMatches(client: OAuthClientRecord, presented: string): boolean {
  return Boolean(client.secret_hash) && matchesHash(presented, client.secret_hash!);
}
