import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { now, nowSeconds } from '../../platform/clock.ts';
import { tableName } from '../../platform/resources.ts';
import { lifetimes, RECORD_RETENTION_SECONDS } from './config.ts';
import { newGrantId, type RiderClaims } from './grants.ts';
import { randomHandle, sha256 } from '../../platform/secrets.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * Authorization codes (spec 3.2): 10 minutes, single use, bound to the app, the redirect URI and
 * the PKCE challenge. Stored under a hash of the code. The grant id is fixed when the code is
 * issued, so a replayed code can revoke exactly what its first exchange created.
 */

export interface CodeRecord {
  code_hash: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  nonce?: string;
  sub: string;
  rider_claims: RiderClaims;
  auth_time: number;
  grant_id: string;
  status: 'issued' | 'redeemed';
  expires_at: number;
  created_at: string;
  delete_after: number;
}

export type NewCode = Pick<CodeRecord, 'client_id' | 'redirect_uri' | 'code_challenge' | 'scope' | 'nonce' | 'sub' | 'rider_claims' | 'auth_time'>;

export async function issueCode(input: NewCode): Promise<string> {
  const code = randomHandle(32);
  const expiresAt = nowSeconds() + lifetimes.codeSeconds;
  const record: CodeRecord = {
    ...input,
    code_hash: sha256(code),
    grant_id: newGrantId(),
    status: 'issued',
    expires_at: expiresAt,
    created_at: now().toISOString(),
    delete_after: expiresAt + RECORD_RETENTION_SECONDS,
  };
  await dynamo().send(new PutCommand({ TableName: tableName('oauthCodes'), Item: record }));
  return code;
}

export async function findCode(code: string): Promise<CodeRecord | null> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName('oauthCodes'), Key: { code_hash: sha256(code) }, ConsistentRead: true }),
  );
  return (result.Item as CodeRecord | undefined) ?? null;
}

/** Uses the code up. False if it was already used (by a replay, or a concurrent exchange). */
export async function markCodeRedeemed(codeHash: string): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('oauthCodes'),
        Key: { code_hash: codeHash },
        UpdateExpression: 'SET #status = :redeemed, redeemed_at = :now',
        ConditionExpression: '#status = :issued',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':redeemed': 'redeemed', ':issued': 'issued', ':now': now().toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}
