import { INVALID_CREDENTIALS, MISSING_CREDENTIALS } from '../../platform/credential-refusals.ts';
import { looksLikeApiKey, verifyApiKey } from './api-keys.ts';
import { usageKeyFor } from './usage-keys.ts';
import type { Principal } from './principal.ts';

/**
 * Turns the credential a request presents into a principal. Spec 5.1: the key goes in the
 * `apikey` header; one statement puts it in `Authorization` instead, so `Authorization: Api-Key
 * <key>`, `Authorization: Bearer <key>` and a bare key there are accepted as well. Any other
 * bearer token goes to the bearer verifiers: rider sessions and OAuth access tokens plug in there.
 */

export type PresentedCredential = { kind: 'apikey'; key: string } | { kind: 'bearer'; token: string };

export type AuthDecision =
  | { allow: true; principal: Principal; /** API Gateway usage-plan key, when one applies. */ usageIdentifierKey?: string }
  | { allow: false; error: string };

export type BearerVerifier = (token: string) => Promise<AuthDecision | null>;

/** Verifiers tried in order for bearer tokens that are not API keys; the first non-null decides. */
const bearerVerifiers: BearerVerifier[] = [];

export function registerBearerVerifier(verifier: BearerVerifier): void {
  bearerVerifiers.push(verifier);
}

function header(headers: Record<string, string | undefined>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && value !== undefined) return value.trim();
  }
  return undefined;
}

export function presentedCredential(headers: Record<string, string | undefined>): PresentedCredential | null {
  const apiKey = header(headers, 'apikey');
  if (apiKey) return { kind: 'apikey', key: apiKey };
  const authorization = header(headers, 'authorization');
  if (!authorization) return null;
  const [scheme, ...rest] = authorization.split(/\s+/);
  const value = rest.join(' ');
  if (!value) return { kind: 'apikey', key: authorization };
  const normalisedScheme = scheme!.toLowerCase();
  if (normalisedScheme === 'api-key' || normalisedScheme === 'apikey') return { kind: 'apikey', key: value };
  if (normalisedScheme === 'bearer') return looksLikeApiKey(value) ? { kind: 'apikey', key: value } : { kind: 'bearer', token: value };
  return { kind: 'apikey', key: authorization };
}

export async function authenticate(headers: Record<string, string | undefined>): Promise<AuthDecision> {
  const credential = presentedCredential(headers);
  if (!credential) return { allow: false, error: MISSING_CREDENTIALS };
  if (credential.kind === 'apikey') {
    const record = await verifyApiKey(credential.key);
    if (!record) return { allow: false, error: INVALID_CREDENTIALS };
    return {
      allow: true,
      principal: {
        kind: 'apikey',
        keyId: record.key_id,
        plan: record.plan,
        source: record.source ?? null,
        limits: record.limits,
        rateBucket: `key:${record.key_id}`,
      },
      // Derived from the key id under the secret version it was registered with: the key itself is
      // never an API Gateway key value (usage-keys.ts).
      usageIdentifierKey: await usageKeyFor(record.key_id, record.usage_secret_version),
    };
  }
  for (const verify of bearerVerifiers) {
    const decision = await verify(credential.token);
    if (decision) return decision;
  }
  return { allow: false, error: INVALID_CREDENTIALS };
}
