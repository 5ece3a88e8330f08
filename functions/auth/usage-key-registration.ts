import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';
import { API_KEY_RECORD_CACHE_MS, listApiKeys, type ApiKeyRecord } from './api-keys.ts';
import type { Plan } from '../../platform/plans.ts';
import type { UsageKeySecretStore, UsageKeySecretVersion } from './usage-key-secrets.ts';
import { deriveUsageKey } from './usage-keys.ts';
import { usagePlanEnvVars } from '../../platform/deployment-settings.ts';
import { createUsagePlanKey, deleteUsagePlanKey } from './api-gateway-keys.ts';

/**
 * Registering customer keys' usage keys (usage-keys.ts), and rotating the secret usage-plan key values are derived under (usage-keys.ts) without a moment in
 * which an issued key is refused. API Gateway cannot change an API key's value, so each key gets
 * a new API Gateway key under the new secret version beside its old one:
 *
 * 1. A new version is added as pending (or the pending one of an interrupted rotation is taken up).
 * 2. Each active key is registered under it: its new usage key is created in its plan's usage plan,
 *    then its record names the new version and usage key, keeping the old usage key's id. From
 *    the record's next read (at most API_KEY_RECORD_CACHE_MS later) every authorizer derives the
 *    new value, which API Gateway already holds; until then they derive the old one, still there.
 * 3. The pending version becomes current, so keys created from now on use it; keys created during
 *    step 2 are found by a last pass before this.
 * 4. After the record cache has expired everywhere, the old usage keys are deleted.
 *
 * Running it again after an interruption finishes the same rotation.
 */

/** Where usage keys are registered: API Gateway usage plans in AWS; nowhere on the local platform. */
export interface UsageKeyRegistry {
  /** Registers a usage key with this value in the plan's usage plan: its id, or null where there are no usage plans. */
  register(input: { value: string; name: string; plan: Plan }): Promise<string | null>;
  remove(usageKeyId: string): Promise<void>;
}

export const apiGatewayRegistry: UsageKeyRegistry = {
  register: ({ value, name, plan }) => createUsagePlanKey({ value, name, usagePlanEnvVar: usagePlanEnvVars[plan] }),
  remove: deleteUsagePlanKey,
};

/** The local gateway meters nothing: only the records' versions move. */
export const localRegistry: UsageKeyRegistry = {
  register: () => Promise.resolve(null),
  remove: () => Promise.resolve(),
};

/**
 * Registers a new key's usage key under the current secret version, and records both on the
 * key's record (`keys create --aws`). Returns the usage key's id, or null where there are no usage plans.
 */
export async function registerUsageKey(
  key: { keyId: string; name: string; plan: Plan },
  registry: UsageKeyRegistry,
  store: UsageKeySecretStore,
): Promise<string | null> {
  const current = await store.current();
  const usageKeyId = await registry.register({ value: deriveUsageKey(current.value, key.keyId), name: `${key.keyId} ${key.name}`, plan: key.plan });
  await updateRecord(key.keyId, `SET usage_secret_version = :version${usageKeyId ? ', usage_key_id = :id' : ''}`, {
    ':version': current.versionId,
    ...(usageKeyId ? { ':id': usageKeyId } : {}),
  });
  return usageKeyId;
}

/**
 * How long the old usage keys stay after the records name the new ones: twice the time an
 * authorizer may keep a record, for requests that started with the old record in hand.
 */
export const OLD_USAGE_KEYS_KEPT_MS = 2 * API_KEY_RECORD_CACHE_MS;

export interface UsageKeyRotation {
  readonly store: UsageKeySecretStore;
  readonly registry: UsageKeyRegistry;
  /** Waits this long (the caller's clock: a timer for the CLI, a step for tests). */
  readonly wait: (ms: number) => Promise<void>;
  readonly log: (line: string) => void;
}

export interface RotationOutcome {
  readonly versionId: string;
  readonly reRegistered: number;
  readonly oldUsageKeysDeleted: number;
}

export async function rotateUsageKeySecret(rotation: UsageKeyRotation): Promise<RotationOutcome> {
  const { store, registry, log } = rotation;
  const resumed = await store.pending();
  const pending = resumed ?? (await store.createPending());
  log(`${resumed ? 'Resuming the rotation to' : 'New'} usage-key secret version ${pending.versionId}`);
  let reRegistered = 0;
  // Until a pass finds nothing: a key created meanwhile was registered under the old version.
  for (let stale = await keysNotUnder(pending); stale.length > 0; stale = await keysNotUnder(pending)) {
    for (const record of stale) await reRegister(record, pending, registry);
    reRegistered += stale.length;
    log(`${reRegistered} keys registered under the new version`);
  }
  await store.promote(pending.versionId);
  log(`Version ${pending.versionId} is current; old usage keys are deleted in ${OLD_USAGE_KEYS_KEPT_MS / 1000} s`);
  await rotation.wait(OLD_USAGE_KEYS_KEPT_MS);
  let oldUsageKeysDeleted = 0;
  for (const record of await listApiKeys()) {
    if (!record.previous_usage_key_id) continue;
    await registry.remove(record.previous_usage_key_id);
    await updateRecord(record.key_id, 'REMOVE previous_usage_key_id', {});
    oldUsageKeysDeleted += 1;
  }
  log(`Rotation finished: ${reRegistered} keys re-registered, ${oldUsageKeysDeleted} old usage keys deleted`);
  return { versionId: pending.versionId, reRegistered, oldUsageKeysDeleted };
}

/** Active keys whose usage key is not derived under the version. Revoked keys are never metered again. */
async function keysNotUnder(version: UsageKeySecretVersion): Promise<ApiKeyRecord[]> {
  return (await listApiKeys()).filter((record) => record.status === 'active' && record.usage_secret_version !== version.versionId);
}

async function reRegister(record: ApiKeyRecord, version: UsageKeySecretVersion, registry: UsageKeyRegistry): Promise<void> {
  const usageKeyId = await registry.register({ value: deriveUsageKey(version.value, record.key_id), name: `${record.key_id} ${record.name}`, plan: record.plan });
  // Left by an earlier rotation that stopped before its end: nobody has named it since.
  if (record.previous_usage_key_id) await registry.remove(record.previous_usage_key_id);
  if (usageKeyId === null) {
    await updateRecord(record.key_id, 'SET usage_secret_version = :version REMOVE previous_usage_key_id', { ':version': version.versionId });
    return;
  }
  const keepOld = record.usage_key_id ? ', previous_usage_key_id = :old' : ' REMOVE previous_usage_key_id';
  await updateRecord(record.key_id, `SET usage_secret_version = :version, usage_key_id = :id${keepOld}`, {
    ':version': version.versionId,
    ':id': usageKeyId,
    ...(record.usage_key_id ? { ':old': record.usage_key_id } : {}),
  });
}

async function updateRecord(keyId: string, expression: string, values: Record<string, string>): Promise<void> {
  await dynamo().send(new UpdateCommand({
    TableName: tableName('apiKeys'),
    Key: { key_id: keyId },
    UpdateExpression: expression,
    ConditionExpression: 'attribute_exists(key_id)',
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  }));
}
