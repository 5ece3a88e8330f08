/**
 * Operator CLI.
 *
 *   npm run admin -- keys create --name <name> --plan free|enterprise|partner
 *                    [--source <slug>] [--per-minute N --per-hour N --per-day N]
 *   npm run admin -- keys list
 *   npm run admin -- keys revoke <key id>
 *
 * By default it works on the local platform (started with `npm start`; it reads the info file
 * in SPOKE_STATE_DIR). With --aws it uses the AWS environment: TABLE_API_KEYS and the
 * SPOKE_USAGE_PLAN_* ids from the stack outputs, and registers keys with their usage plan.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey, getApiKeyRecord, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../functions/auth/api-keys.ts';
import { plans, type Plan, type RateLimits } from '../functions/auth/principal.ts';
import { disableUsagePlanKey, registerUsagePlanKey } from '../functions/auth/usage-plans.ts';
import { localStateDir } from '../functions/platform/paths.ts';
import { functionEnvironment } from '../lib/local/provision.ts';

class UsageError extends Error {}

async function useLocalPlatform(): Promise<void> {
  const infoFile = join(localStateDir(), 'local-platform.json');
  let services: { dynamodb: string; s3: string; sqs: string };
  try {
    services = (JSON.parse(await readFile(infoFile, 'utf8')) as { services: typeof services }).services;
  } catch {
    throw new UsageError(`No local platform found (${infoFile} is missing). Start it with \`npm start\`, or pass --aws.`);
  }
  Object.assign(process.env, functionEnvironment(services));
}

function limitsFrom(values: Record<string, string | boolean | undefined>): RateLimits | undefined {
  const given = ['per-minute', 'per-hour', 'per-day'].filter((name) => values[name] !== undefined);
  if (given.length === 0) return undefined;
  if (given.length !== 3) throw new UsageError('Give all three of --per-minute, --per-hour and --per-day');
  const number = (name: string) => Number(values[name]);
  return { perMinute: number('per-minute'), perHour: number('per-hour'), perDay: number('per-day') };
}

function describe(record: ApiKeyRecord): string {
  const limits = `${record.limits.perMinute}/min ${record.limits.perHour}/h ${record.limits.perDay}/day`;
  return [record.key_id, record.status.padEnd(7), record.plan.padEnd(10), (record.source ?? '-').padEnd(16), limits.padEnd(26), record.created_at, record.name].join('  ');
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      aws: { type: 'boolean', default: false },
      name: { type: 'string' },
      plan: { type: 'string' },
      source: { type: 'string' },
      'per-minute': { type: 'string' },
      'per-hour': { type: 'string' },
      'per-day': { type: 'string' },
    },
  });
  const [group, command, argument] = positionals;
  if (group !== 'keys' || !command) throw new UsageError('Usage: admin keys create|list|revoke ... (see bin/admin.ts)');
  if (!values.aws) await useLocalPlatform();

  switch (command) {
    case 'create': {
      if (!values.name) throw new UsageError('--name is required');
      const plan = values.plan as Plan;
      if (!plans.includes(plan)) throw new UsageError(`--plan must be one of ${plans.join(', ')}`);
      let created;
      try {
        created = await createApiKey({ name: values.name, plan, source: values.source, limits: limitsFrom(values) });
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      if (values.aws) {
        try {
          await registerUsagePlanKey({ key: created.key, keyId: created.record.key_id, name: created.record.name, plan });
        } catch (error) {
          await revokeApiKey(created.record.key_id);
          throw new Error(`Usage-plan registration failed, so the new key was revoked: ${(error as Error).message}`);
        }
      }
      console.log(describe(created.record));
      console.log(`\nAPI key (shown once; only its hash is stored):\n${created.key}`);
      return;
    }
    case 'list': {
      for (const record of await listApiKeys()) console.log(describe(record));
      return;
    }
    case 'revoke': {
      if (!argument) throw new UsageError('Usage: admin keys revoke <key id>');
      const record = await getApiKeyRecord(argument);
      if (!record || !(await revokeApiKey(argument))) throw new UsageError(`No key with id ${argument}`);
      if (values.aws && record.usage_key_id) await disableUsagePlanKey(record.usage_key_id);
      console.log(`Revoked ${argument}; requests with it are refused from now on.`);
      return;
    }
    default:
      throw new UsageError(`Unknown command keys ${command}`);
  }
}

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : `admin failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
