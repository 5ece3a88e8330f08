import { createPrivateKey, generateKeyPairSync, sign, type JsonWebKey } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { dynamo } from '../../platform/aws.ts';
import { now, nowMs } from '../../platform/clock.ts';
import { tableName } from '../../platform/resources.ts';
import type { KeyCustody, SigningKeyRecord, SigningKeyStatus } from './key-custody.ts';
import { kmsCustody } from './kms-custody.ts';
import { scanAll } from '../../platform/dynamo-pages.ts';

/**
 * ES256 signing keys for access and id tokens, with rotation. The key table lists every key
 * with its public JWK and `kid` (the RFC 7638 thumbprint): `current` signs, `current` and
 * `previous` are published in the JWKS and accepted by the authorizer, `retired` is neither.
 * Rotating adds a new current key and moves the others one step along, so tokens signed just
 * before a rotation keep verifying until they expire; rotate no more often than the access-token
 * lifetime (1 hour). A new key is published a minute before anything is signed with it, longer
 * than verifiers cache the key set, so no verifier ever meets a token whose key it has not seen.
 *
 * Where the private key lives is the one thing that differs between AWS and this machine, and
 * it sits behind `KeyCustody`: in AWS a KMS asymmetric key (the private key never leaves KMS;
 * each signature is a `kms:Sign` call), locally a private JWK in the local platform's DynamoDB
 * state. `OAUTH_KEY_CUSTODY` chooses the custody of new keys (`kms` unless set, so a deployment
 * can never fall back to keys in a table); each key record says which custody signs with it.
 */

const localCustody: KeyCustody = {
  async create() {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { public_jwk: publicKey.export({ format: 'jwk' }) as JWK, private_jwk: privateKey.export({ format: 'jwk' }) as JWK };
  },
  async sign(record, signingInput) {
    const key = createPrivateKey({ key: record.private_jwk as JsonWebKey, format: 'jwk' });
    return sign('sha256', signingInput, { key, dsaEncoding: 'ieee-p1363' });
  },
  async retire() {
    // The private JWK is removed from the record by rotateSigningKeys.
  },
};

function custodyOf(record: SigningKeyRecord): KeyCustody {
  if (record.kms_key_id) return kmsCustody;
  if (record.private_jwk) return localCustody;
  throw new Error(`Signing key ${record.kid} has no private key custody`);
}

function configuredCustody(): KeyCustody {
  const name = process.env.OAUTH_KEY_CUSTODY ?? 'kms';
  if (name === 'kms') return kmsCustody;
  if (name === 'local') return localCustody;
  throw new Error(`OAUTH_KEY_CUSTODY must be kms or local, not ${name}`);
}

export async function listSigningKeys(): Promise<SigningKeyRecord[]> {
  const records = await scanAll<SigningKeyRecord>({ TableName: tableName('oauthSigningKeys'), ConsistentRead: true });
  return records.sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** The public JWKs that verify tokens: current and previous keys, newest first. */
export async function publishedKeys(): Promise<JWK[]> {
  return (await listSigningKeys())
    .filter((record) => record.status !== 'retired')
    .map((record) => ({ ...publicPart(record.public_jwk), kid: record.kid, alg: 'ES256', use: 'sig' }));
}

function publicPart(jwk: JWK): JWK {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}

/** Adds a new current key; the current one becomes previous, the previous one retired. */
export async function rotateSigningKeys(): Promise<SigningKeyRecord> {
  const existing = await listSigningKeys();
  const material = await configuredCustody().create();
  const kid = await calculateJwkThumbprint(publicPart(material.public_jwk), 'sha256');
  const record: SigningKeyRecord = { kid, status: 'current', created_at: now().toISOString(), ...material, public_jwk: publicPart(material.public_jwk) };
  // New key first, so there is always a current key to sign with and every key in use is published.
  await dynamo().send(new PutCommand({ TableName: tableName('oauthSigningKeys'), Item: record, ConditionExpression: 'attribute_not_exists(kid)' }));
  for (const old of existing) {
    if (old.status === 'current') await setStatus(old, 'previous');
    else if (old.status === 'previous') {
      await custodyOf(old).retire(old);
      await setStatus(old, 'retired');
    }
  }
  signingKeyCache = undefined;
  return record;
}

async function setStatus(record: SigningKeyRecord, status: SigningKeyStatus): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('oauthSigningKeys'),
      Key: { kid: record.kid },
      // A retired key's local private half is deleted: nothing may sign with it again.
      UpdateExpression: status === 'retired' ? 'SET #status = :status REMOVE private_jwk' : 'SET #status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
    }),
  );
}

/** Makes sure a current key exists (first start of the local platform, first deployment). */
export async function ensureSigningKey(): Promise<SigningKeyRecord> {
  const current = (await listSigningKeys()).find((record) => record.status === 'current');
  return current ?? rotateSigningKeys();
}

export async function getSigningKey(kid: string): Promise<SigningKeyRecord | null> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName('oauthSigningKeys'), Key: { kid }, ConsistentRead: true }));
  return (result.Item as SigningKeyRecord | undefined) ?? null;
}

/** How long a new key is published before it signs: more than verifiers cache keys (access-tokens.ts). */
export const KEY_PUBLICATION_LEAD_MS = 61_000;

/** The key table, cached briefly so a container does not scan it per token. */
const KEY_LIST_CACHE_MS = 15_000;
let signingKeyCache: { records: SigningKeyRecord[]; fetchedAt: number } | undefined;

async function currentSigningKey(): Promise<SigningKeyRecord> {
  const age = signingKeyCache ? nowMs() - signingKeyCache.fetchedAt : -1;
  // A negative age means the cache was filled by a request run later in time (tests): refill.
  if (!signingKeyCache || age < 0 || age >= KEY_LIST_CACHE_MS) signingKeyCache = { records: await listSigningKeys(), fetchedAt: nowMs() };
  const usable = signingKeyCache.records.filter((record) => record.status !== 'retired');
  const published = (record: SigningKeyRecord) => Date.parse(record.created_at) <= nowMs() - KEY_PUBLICATION_LEAD_MS;
  // Newest first; the very first key signs at once, since no verifier can hold an older key set.
  const record = usable.find(published) ?? usable.find((candidate) => candidate.status === 'current');
  if (!record) throw new Error('No current OAuth signing key; run `npm run admin -- signing-keys rotate`');
  return record;
}

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS (RFC 7515) with ES256 and the current key's `kid`. */
export async function signJwt(payload: Record<string, unknown>, type: 'at+jwt' | 'JWT'): Promise<string> {
  const key = await currentSigningKey();
  const signingInput = `${base64url({ alg: 'ES256', kid: key.kid, typ: type })}.${base64url(payload)}`;
  const signature = await custodyOf(key).sign(key, Buffer.from(signingInput, 'ascii'));
  return `${signingInput}.${signature.toString('base64url')}`;
}
