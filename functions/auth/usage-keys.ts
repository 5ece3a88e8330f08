import { createHmac } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/**
 * The value of a customer key's API Gateway API key (the usage-plan key that meters it): an
 * HMAC-SHA256 of the key id under a secret that only the authorizer and the operator can read,
 * never the customer's key itself. Anyone who can list API Gateway keys (`apigateway:GET`) sees
 * these values, and they open nothing: the authorizer checks the presented key against its hash in
 * the keys table and only then names the derived value as `usageIdentifierKey`. So the platform
 * stores no customer key in AWS either, only its hash (README, "API keys").
 *
 * The secret is a Secrets Manager secret the stack creates (lib/usage-plans.ts); its ARN reaches
 * the authorizer and the operator CLI as USAGE_KEY_SECRET_ARN. The local platform, which has no
 * usage plans, gives the secret itself as USAGE_KEY_SECRET.
 */

export const USAGE_KEY_SECRET_ARN_ENV_VAR = 'USAGE_KEY_SECRET_ARN';
export const USAGE_KEY_SECRET_ENV_VAR = 'USAGE_KEY_SECRET';

/** `spg_` and 64 hex digits: within API Gateway's 20 to 128 characters, and unique per key id. */
export function deriveUsageKey(secret: string, keyId: string): string {
  return `spg_${createHmac('sha256', secret).update(keyId, 'utf8').digest('hex')}`;
}

let secretRead: Promise<string> | undefined;

/** The secret, read once per container (requests that arrive during the read share it). */
function usageKeySecret(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const local = env[USAGE_KEY_SECRET_ENV_VAR];
  if (local) return Promise.resolve(local);
  const arn = env[USAGE_KEY_SECRET_ARN_ENV_VAR];
  if (!arn) return Promise.reject(new Error(`Set ${USAGE_KEY_SECRET_ARN_ENV_VAR} (a stack output) to derive usage-plan key values`));
  secretRead ??= readSecret(arn).catch((error: unknown) => {
    secretRead = undefined; // the next request tries again
    throw error;
  });
  return secretRead;
}

async function readSecret(arn: string): Promise<string> {
  const client = new SecretsManagerClient({});
  try {
    const { SecretString: secret } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!secret) throw new Error(`Secret ${arn} has no string value`);
    return secret;
  } finally {
    client.destroy();
  }
}

/** The usage-plan key value of the customer key with this id. */
export async function usageKeyFor(keyId: string): Promise<string> {
  return deriveUsageKey(await usageKeySecret(), keyId);
}
