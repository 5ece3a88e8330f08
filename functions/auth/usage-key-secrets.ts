import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  GetSecretValueCommand, ListSecretVersionIdsCommand, PutSecretValueCommand, SecretsManagerClient, UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';

/**
 * The versions of the secret customer keys' usage-plan key values are derived under
 * (usage-keys.ts). A version's value never changes, so a container keeps every version it has
 * read; rotating adds a version (pending while keys are re-registered under it), then makes it
 * current. In AWS the versions are Secrets Manager versions of the stack's secret (stages
 * AWSCURRENT, AWSPENDING, AWSPREVIOUS); the local platform keeps them in a file of its state
 * folder, so `usage-keys rotate-secret` works on both.
 */

export interface UsageKeySecretVersion {
  readonly versionId: string;
  readonly value: string;
}

export interface UsageKeySecretStore {
  /** The value of one version; an unknown version is an error. */
  version(versionId: string): Promise<string>;
  /** The version new keys are registered under. */
  current(): Promise<UsageKeySecretVersion>;
  /** The version a rotation in progress re-registers keys under, or null. */
  pending(): Promise<UsageKeySecretVersion | null>;
  /** Adds a new random version as the pending one. */
  createPending(): Promise<UsageKeySecretVersion>;
  /** Makes the pending version current (the current one becomes previous). */
  promote(versionId: string): Promise<void>;
}

/** The length of generated secrets, as the stack's first version (lib/usage-plans.ts). */
const SECRET_LENGTH = 64;
const newSecretValue = (): string => randomBytes(48).toString('base64url').slice(0, SECRET_LENGTH);

const CURRENT = 'AWSCURRENT';
const PENDING = 'AWSPENDING';

/** The stack's Secrets Manager secret (its ARN is USAGE_KEY_SECRET_ARN). */
export function secretsManagerStore(secretArn: string): UsageKeySecretStore {
  const client = new SecretsManagerClient({});
  const read = async (selector: { VersionId: string } | { VersionStage: string }): Promise<UsageKeySecretVersion> => {
    const answer = await client.send(new GetSecretValueCommand({ SecretId: secretArn, ...selector }));
    if (!answer.SecretString || !answer.VersionId) throw new Error(`Secret ${secretArn} has no string value`);
    return { versionId: answer.VersionId, value: answer.SecretString };
  };
  return {
    version: async (versionId) => (await read({ VersionId: versionId })).value,
    current: () => read({ VersionStage: CURRENT }),
    async pending() {
      const versions = await client.send(new ListSecretVersionIdsCommand({ SecretId: secretArn }));
      const pending = versions.Versions?.find((version) => version.VersionStages?.includes(PENDING) && !version.VersionStages.includes(CURRENT));
      return pending?.VersionId ? read({ VersionId: pending.VersionId }) : null;
    },
    async createPending() {
      const versionId = randomUUID();
      const value = newSecretValue();
      await client.send(new PutSecretValueCommand({ SecretId: secretArn, ClientRequestToken: versionId, SecretString: value, VersionStages: [PENDING] }));
      return { versionId, value };
    },
    async promote(versionId) {
      const { versionId: currentId } = await read({ VersionStage: CURRENT });
      if (currentId !== versionId) {
        // Secrets Manager moves AWSPREVIOUS to the version that loses AWSCURRENT.
        await client.send(new UpdateSecretVersionStageCommand({ SecretId: secretArn, VersionStage: CURRENT, MoveToVersionId: versionId, RemoveFromVersionId: currentId }));
      }
      await client.send(new UpdateSecretVersionStageCommand({ SecretId: secretArn, VersionStage: PENDING, RemoveFromVersionId: versionId }));
    },
  };
}

interface SecretsFile {
  current: string;
  pending?: string;
  previous?: string;
  versions: Record<string, string>;
}

/**
 * The local platform's versions, in a JSON file of its state folder (USAGE_KEY_SECRETS_FILE),
 * which the platform and the operator CLI both reach; created with one version on first use.
 */
export function fileStore(path: string): UsageKeySecretStore {
  const load = async (): Promise<SecretsFile> => {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as SecretsFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const first = randomUUID();
      const created: SecretsFile = { current: first, versions: { [first]: newSecretValue() } };
      await save(created);
      return created;
    }
  };
  const save = async (file: SecretsFile): Promise<void> => {
    await mkdir(dirname(path), { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const temporary = `${path}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify(file, null, 2), { mode: 0o600 });
    await rename(temporary, path);
  };
  const versionOf = (file: SecretsFile, versionId: string): UsageKeySecretVersion => {
    const value = file.versions[versionId];
    if (value === undefined) throw new Error(`No usage-key secret version ${versionId} in ${path}`);
    return { versionId, value };
  };
  return {
    version: async (versionId) => versionOf(await load(), versionId).value,
    current: async () => {
      const file = await load();
      return versionOf(file, file.current);
    },
    pending: async () => {
      const file = await load();
      return file.pending ? versionOf(file, file.pending) : null;
    },
    async createPending() {
      const file = await load();
      const versionId = randomUUID();
      const value = newSecretValue();
      await save({ ...file, pending: versionId, versions: { ...file.versions, [versionId]: value } });
      return { versionId, value };
    },
    async promote(versionId) {
      const file = await load();
      versionOf(file, versionId);
      if (file.current === versionId) return save({ ...file, pending: undefined });
      await save({ current: versionId, previous: file.current, versions: file.versions });
    },
  };
}
