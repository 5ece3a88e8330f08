import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { now, nowSeconds } from '../../platform/clock.ts';
import { tableName } from '../../platform/resources.ts';
import { lifetimes, RECORD_RETENTION_SECONDS } from './config.ts';
import { randomHandle, sha256 } from '../../platform/secrets.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * An authorization request between the authorize endpoint and the rider's decision (spec 3.2):
 * open for 3 minutes, then approved, cancelled or expired. It is bound to the browser that
 * started it (a random cookie whose hash it stores) and its forms carry a CSRF token, so a
 * consent link passed to someone else, or a form posted from another site, gets nowhere.
 */

export interface SignedInRider {
  sub: string;
  email?: string;
  name?: string;
  method: 'identity-provider' | 'email';
  /** Unix seconds. */
  auth_time: number;
}

export interface AuthorizationRequestRecord {
  request_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  state: string;
  scope: string;
  nonce?: string;
  /** Unix seconds: prompt=login (or max_age=0) wants a sign-in from then on (functions/oauth/prompt.ts). */
  authenticate_after?: number;
  /** max_age: the rider's sign-in may be at most this many seconds old. */
  max_age?: number;
  browser_hash: string;
  csrf_token: string;
  status: 'open' | 'approved' | 'cancelled';
  created_at: string;
  /** Unix seconds; the request is expired from then on, whatever its status says. */
  expires_at: number;
  delete_after: number;
  rider?: SignedInRider;
  email_challenge?: { challenge_id: string; reference: string; masked_email: string };
  idp_sign_in?: { state_hash: string; nonce: string; code_verifier: string };
}

export type NewAuthorizationRequest = Pick<
  AuthorizationRequestRecord,
  'client_id' | 'redirect_uri' | 'code_challenge' | 'state' | 'scope' | 'nonce' | 'authenticate_after' | 'max_age'
> & { browserSecret: string };

export async function createAuthorizationRequest(input: NewAuthorizationRequest): Promise<AuthorizationRequestRecord> {
  const { browserSecret, ...request } = input;
  const expiresAt = nowSeconds() + lifetimes.authorizationRequestSeconds;
  const record: AuthorizationRequestRecord = {
    ...request,
    request_id: randomHandle(18),
    browser_hash: sha256(browserSecret),
    csrf_token: randomHandle(24),
    status: 'open',
    created_at: now().toISOString(),
    expires_at: expiresAt,
    delete_after: expiresAt + RECORD_RETENTION_SECONDS,
  };
  await dynamo().send(
    new PutCommand({ TableName: tableName('oauthRequests'), Item: record, ConditionExpression: 'attribute_not_exists(request_id)' }),
  );
  return record;
}

export async function getAuthorizationRequest(requestId: string): Promise<AuthorizationRequestRecord | null> {
  if (!/^[A-Za-z0-9_-]{24}$/.test(requestId)) return null;
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName('oauthRequests'), Key: { request_id: requestId }, ConsistentRead: true }),
  );
  return (result.Item as AuthorizationRequestRecord | undefined) ?? null;
}

export const isExpired = (record: AuthorizationRequestRecord): boolean => record.expires_at <= nowSeconds();

type Changes = Partial<Pick<AuthorizationRequestRecord, 'rider' | 'email_challenge' | 'idp_sign_in' | 'status'>>;

/**
 * Changes a request only while it is open and unexpired (checked by DynamoDB, so a decision can
 * never land on a request that was decided or expired meanwhile). `remove` drops fields.
 */
export async function updateOpenRequest(
  requestId: string,
  changes: Changes,
  remove: (keyof AuthorizationRequestRecord)[] = [],
): Promise<boolean> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':open': 'open', ':now': nowSeconds() };
  const sets = Object.entries(changes).map(([field, value]) => {
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    return `#${field} = :${field}`;
  });
  for (const field of remove) names[`#${field}`] = field;
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    remove.length ? `REMOVE ${remove.map((field) => `#${field}`).join(', ')}` : '',
  ].join(' ');
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('oauthRequests'),
        Key: { request_id: requestId },
        UpdateExpression: expression.trim(),
        ConditionExpression: '#status = :open AND expires_at > :now',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}
