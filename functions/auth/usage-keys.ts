import { createHmac } from 'node:crypto';
import { USAGE_KEY_SECRET_ARN_ENV_VAR, USAGE_KEY_SECRET_ENV_VAR, USAGE_KEY_SECRETS_FILE_ENV_VAR } from '../../platform/deployment-settings.ts';
import { RefreshedValue } from '../../platform/refreshed-value.ts';
import { fileStore, secretsManagerStore, type UsageKeySecretStore, type UsageKeySecretVersion } from './usage-key-secrets.ts';

/**
 * The value of a customer key's API Gateway API key (the usage-plan key that meters it): an
 * HMAC-SHA256 of the key id under a secret that only the authorizer and the operator can read,
 * never the customer's key itself. Anyone who can list API Gateway keys (`apigateway:GET`) sees
 * these values, and they open nothing: the authorizer checks the presented key against its hash in
 * the keys table and only then names the derived value as `usageIdentifierKey`. So the platform
 * stores no customer key in AWS either, only its hash (README, "API keys").
 *
 * The secret is a Secrets Manager secret the stack creates (lib/usage-plans.ts); its ARN reaches
 * the authorizer and the operator CLI as USAGE_KEY_SECRET_ARN. It can be rotated
 * (usage-key-rotation.ts): each key record names the secret version its usage key was registered
 * under (`usage_secret_version`), and the value is derived under that version until the key is
 * registered again, so a rotation never names a value API Gateway does not hold. The local
 * platform, which has no usage plans, keeps its versions in a file (USAGE_KEY_SECRETS_FILE);
 * USAGE_KEY_SECRET gives one fixed secret instead (tests).
 */

/**
 * How often a container looks again at which version is current, for the records that name no
 * version (keys registered before the first rotation). A rotation moves the current version only
 * after every active key names its version, so this bound only ever delays nothing; it keeps
 * the reads of the secret to one per container every five minutes.
 */
export const CURRENT_USAGE_KEY_SECRET_REFRESH_MS = 5 * 60_000;

/** `spg_` and 64 hex digits: within API Gateway's 20 to 128 characters, and unique per key id. */
export function deriveUsageKey(secret: string, keyId: string): string {
  return `spg_${createHmac('sha256', secret).update(keyId, 'utf8').digest('hex')}`;
}

/** A store with what this container has read of it: versions for ever (they never change), the current one refreshed. */
interface ReadSecrets {
  readonly store: UsageKeySecretStore;
  readonly versions: Map<string, Promise<string>>;
  current?: RefreshedValue<UsageKeySecretVersion>;
}

const readSecrets = new Map<string, ReadSecrets>();

/** The store the environment names, or null when it gives one fixed secret. */
export function usageKeySecretStore(env: NodeJS.ProcessEnv = process.env): UsageKeySecretStore | null {
  return readSecretsOf(env)?.store ?? null;
}

function readSecretsOf(env: NodeJS.ProcessEnv): ReadSecrets | null {
  if (env[USAGE_KEY_SECRET_ENV_VAR]) return null;
  const file = env[USAGE_KEY_SECRETS_FILE_ENV_VAR];
  const arn = env[USAGE_KEY_SECRET_ARN_ENV_VAR];
  if (!file && !arn) throw new Error(`Set ${USAGE_KEY_SECRET_ARN_ENV_VAR} (a stack output) to derive usage-plan key values`);
  const id = file ? `file:${file}` : `arn:${arn}`;
  let known = readSecrets.get(id);
  if (!known) {
    known = { store: file ? fileStore(file) : secretsManagerStore(arn!), versions: new Map() };
    readSecrets.set(id, known);
  }
  return known;
}

/** One version's value, read once per container (requests that arrive during the read share it). */
function versionValue(secrets: ReadSecrets, versionId: string): Promise<string> {
  let value = secrets.versions.get(versionId);
  if (!value) {
    value = secrets.store.version(versionId).catch((error: unknown) => {
      secrets.versions.delete(versionId); // the next request tries again
      throw error;
    });
    secrets.versions.set(versionId, value);
  }
  return value;
}

function currentValue(secrets: ReadSecrets): Promise<string> {
  if (!secrets.current || secrets.current.spent) {
    secrets.current = new RefreshedValue(() => secrets.store.current(), () => CURRENT_USAGE_KEY_SECRET_REFRESH_MS, {
      message: 'usage-key secret not refreshed; the version read before stays',
      fields: {},
    });
  }
  return secrets.current.get().then((current) => current.value);
}

/**
 * The usage-plan key value of the customer key with this id: derived under the secret version its
 * record names (the one it was registered under), else under the current version.
 */
export async function usageKeyFor(keyId: string, secretVersion?: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const fixed = env[USAGE_KEY_SECRET_ENV_VAR];
  if (fixed) return deriveUsageKey(fixed, keyId);
  const secrets = readSecretsOf(env)!;
  return deriveUsageKey(await (secretVersion ? versionValue(secrets, secretVersion) : currentValue(secrets)), keyId);
}
