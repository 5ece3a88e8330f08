import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_RECORD_CACHE_MS, createApiKey, getApiKeyRecord, revokeApiKey, type NewApiKey } from '../../functions/auth/api-keys.ts';
import { authenticate } from '../../functions/auth/credentials.ts';
import type { Plan } from '../../platform/plans.ts';
import {
  OLD_USAGE_KEYS_KEPT_MS, registerUsageKey, rotateUsageKeySecret, type UsageKeyRegistry,
} from '../../functions/auth/usage-key-registration.ts';
import type { UsageKeySecretStore } from '../../functions/auth/usage-key-secrets.ts';
import { deriveUsageKey, usageKeySecretStore } from '../../functions/auth/usage-keys.ts';
import { USAGE_KEY_SECRET_ENV_VAR, USAGE_KEY_SECRETS_FILE_ENV_VAR } from '../../platform/deployment-settings.ts';
import { withClockStoppedAt } from '../../platform/clock.ts';
import { tables } from '../../platform/resources.ts';
import { provisionTableCopy } from '../../lib/local/provision.ts';
import { platform, useLocalAws } from '../support/running-platform.ts';

/**
 * Rotating the usage-key secret (functions/auth/usage-key-registration.ts) on the local
 * platform's DynamoDB, with a registry standing in for API Gateway's usage plans: it holds the
 * usage-key values API Gateway would accept. A request passes when the authorizer allows it and
 * names a value the registry holds, as API Gateway requires.
 *
 * The rotation works on its own keys table and secrets file. A rotation re-registers every active
 * key of its table: on the platform's table it would move the keys other test files are using to a
 * version the platform's secrets file does not hold, and their keys would be counted here.
 */

/** API Gateway's API keys, by id: the values it accepts as `usageIdentifierKey`. */
class RecordingRegistry implements UsageKeyRegistry {
  readonly values = new Map<string, string>();
  private registered = 0;
  register(input: { value: string; name: string; plan: Plan }): Promise<string> {
    const id = `usage-key-${++this.registered}`;
    this.values.set(id, input.value);
    return Promise.resolve(id);
  }
  remove(usageKeyId: string): Promise<void> {
    this.values.delete(usageKeyId);
    return Promise.resolve();
  }
  accepts(value: string | undefined): boolean {
    return value !== undefined && [...this.values.values()].includes(value);
  }
}

const start = Date.UTC(2027, 0, 10, 12);
let store: UsageKeySecretStore;
let previousFixedSecret: string | undefined;
let previousFile: string | undefined;
let previousKeysTable: string | undefined;

beforeAll(async () => {
  useLocalAws();
  previousFixedSecret = process.env[USAGE_KEY_SECRET_ENV_VAR];
  previousFile = process.env[USAGE_KEY_SECRETS_FILE_ENV_VAR];
  previousKeysTable = process.env[tables.apiKeys.envVar];
  delete process.env[USAGE_KEY_SECRET_ENV_VAR];
  process.env[USAGE_KEY_SECRETS_FILE_ENV_VAR] = join(await mkdtemp(join(tmpdir(), 'spoke-usage-keys-')), 'usage-key-secrets.json');
  const keysTable = `spoke-api-keys-rotation-${randomUUID()}`;
  await provisionTableCopy(platform.services.dynamodb, tables.apiKeys, keysTable);
  process.env[tables.apiKeys.envVar] = keysTable;
  store = usageKeySecretStore()!;
});
afterAll(() => {
  const restored = [
    [USAGE_KEY_SECRET_ENV_VAR, previousFixedSecret], [USAGE_KEY_SECRETS_FILE_ENV_VAR, previousFile], [tables.apiKeys.envVar, previousKeysTable],
  ] as const;
  for (const [name, value] of restored) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function issuedKey(registry: RecordingRegistry, input: NewApiKey = { name: 'rotation', plan: 'free' }): Promise<{ key: string; keyId: string }> {
  const { key, record } = await createApiKey(input);
  await registerUsageKey({ keyId: record.key_id, name: record.name, plan: record.plan }, registry, store);
  return { key, keyId: record.key_id };
}

/**
 * What the authorizer answers for the key at this instant: allowed, and the usage key it names.
 * The clock stays at the instant: the checks at the record cache's last fresh millisecond must not
 * move past it while the authorizer runs.
 */
async function usageKeyNamed(key: string, atMs: number): Promise<string | undefined> {
  const decision = await withClockStoppedAt(atMs, () => authenticate({ apikey: key }));
  expect(decision.allow).toBe(true);
  return decision.allow ? decision.usageIdentifierKey : undefined;
}

describe('usage-key secret rotation', () => {
  it('an issued key passes before, during and after a rotation, and is then metered under the new secret', async () => {
    const registry = new RecordingRegistry();
    const { key, keyId } = await issuedKey(registry);
    const revoked = await issuedKey(registry);
    await revokeApiKey(revoked.keyId);
    const before = await store.current();
    expect(await usageKeyNamed(key, start)).toBe(deriveUsageKey(before.value, keyId));
    expect(registry.accepts(await usageKeyNamed(key, start))).toBe(true);

    let createdDuring: { key: string; keyId: string } | undefined;
    const outcome = await rotateUsageKeySecret({
      store,
      registry,
      log: () => {},
      wait: async (ms) => {
        expect(ms).toBe(OLD_USAGE_KEYS_KEPT_MS);
        // The record now names the new version and usage key; a container still holding the record
        // it read at `start` names the old value, which API Gateway still holds.
        expect((await getApiKeyRecord(keyId))!.usage_secret_version).not.toBe(before.versionId);
        expect(await usageKeyNamed(key, start + API_KEY_RECORD_CACHE_MS - 1)).toBe(deriveUsageKey(before.value, keyId));
        expect(registry.accepts(await usageKeyNamed(key, start + API_KEY_RECORD_CACHE_MS - 1))).toBe(true);
        // Once it reads the record again it names the new value, registered already.
        const renewed = await usageKeyNamed(key, start + API_KEY_RECORD_CACHE_MS);
        expect(renewed).not.toBe(deriveUsageKey(before.value, keyId));
        expect(registry.accepts(renewed)).toBe(true);
        // A key created now is registered under the new current version.
        createdDuring = await issuedKey(registry);
      },
    });
    // The one active key of the table moved and left its old usage key; the revoked key stayed, and
    // the key created during the wait was registered under the new version in the first place.
    expect(outcome.reRegistered).toBe(1);
    expect(outcome.oldUsageKeysDeleted).toBe(1);
    const after = await store.current();
    expect(after.versionId).toBe(outcome.versionId);
    expect(after.versionId).not.toBe(before.versionId);

    const later = start + 2 * API_KEY_RECORD_CACHE_MS;
    expect(await usageKeyNamed(key, later)).toBe(deriveUsageKey(after.value, keyId));
    expect(registry.accepts(await usageKeyNamed(key, later))).toBe(true);
    expect(registry.accepts(await usageKeyNamed(createdDuring!.key, later))).toBe(true);
    // The old usage key is gone, and the revoked key was left as it was.
    expect(registry.accepts(deriveUsageKey(before.value, keyId))).toBe(false);
    expect((await getApiKeyRecord(keyId))!.previous_usage_key_id).toBeUndefined();
    expect((await getApiKeyRecord(revoked.keyId))!.usage_secret_version).toBe(before.versionId);
  });

  it('takes up a rotation that stopped halfway: the keys move to the same version, which then becomes current', async () => {
    const registry = new RecordingRegistry();
    const first = await issuedKey(registry);
    const second = await issuedKey(registry);
    const before = await store.current();
    // API Gateway fails after one registration: the first run stops with the version pending.
    let allowed = 1;
    const failing: UsageKeyRegistry = {
      register: (input) => (allowed-- > 0 ? registry.register(input) : Promise.reject(new Error('TooManyRequestsException'))),
      remove: (id) => registry.remove(id),
    };
    await expect(rotateUsageKeySecret({ store, registry: failing, log: () => {}, wait: () => Promise.resolve() })).rejects.toThrow('TooManyRequestsException');
    const pending = (await store.pending())!;
    expect(pending.versionId).not.toBe(before.versionId);
    expect((await store.current()).versionId).toBe(before.versionId);
    const midway = start + 10 * API_KEY_RECORD_CACHE_MS;
    for (const { key } of [first, second]) expect(registry.accepts(await usageKeyNamed(key, midway))).toBe(true);

    const outcome = await rotateUsageKeySecret({ store, registry, log: () => {}, wait: () => Promise.resolve() });
    expect(outcome.versionId).toBe(pending.versionId);
    expect((await store.current()).versionId).toBe(pending.versionId);
    expect(await store.pending()).toBeNull();
    const later = start + 20 * API_KEY_RECORD_CACHE_MS;
    for (const { key, keyId } of [first, second]) {
      expect(await usageKeyNamed(key, later)).toBe(deriveUsageKey(pending.value, keyId));
      expect(registry.accepts(await usageKeyNamed(key, later))).toBe(true);
    }
  });
});
