/**
 * Operator CLI.
 *
 *   npm run admin -- keys create --name <name> --plan free|enterprise|partner
 *                    [--source <slug>] [--per-minute N --per-hour N --per-day N]
 *   npm run admin -- keys list
 *   npm run admin -- keys revoke <key id>
 *
 *   npm run admin -- clients create --name <name shown on the consent screen> --type public|confidential
 *                    --redirect-uri <uri> [--redirect-uri <uri> ...]
 *   npm run admin -- clients list
 *   npm run admin -- clients update-redirects <client id> --redirect-uri <uri> [--redirect-uri <uri> ...]
 *   npm run admin -- clients rotate-secret <client id> [--revoke-grants]
 *   npm run admin -- clients revoke <client id>
 *   npm run admin -- signing-keys list
 *   npm run admin -- signing-keys rotate
 *   npm run admin -- usage-keys rotate-secret        (bin/admin-usage-keys.ts)
 *
 *   npm run admin -- events list|show|create|update|archive|categories|destinations ...  (bin/admin-events.ts)
 *   npm run admin -- routes list|show|create|delete ...; parking publish|publish-bays ...  (bin/admin-routes.ts)
 *
 *   npm run admin -- riders token <email>           (local platform: the rider's access token, for curl; bin/admin-riders.ts)
 *   npm run admin -- riders grant-admin <email>     (admins see full profiles in user search; bin/admin-riders.ts)
 *   npm run admin -- riders revoke-admin <email>
 *   npm run admin -- riders list
 *   npm run admin -- reports list [--status in_review] | show <id> | accept <id> [--note <text>]
 *                    [--until <YYYY-MM-DDTHH:mm>] | reject <id> --note <text> | resolve <id> --note <text>
 *                    (bin/admin-reports.ts; docs/reports.md)
 *   npm run admin -- metrics [--minutes 15] [--until <instant>] [--json]   (local platform: its functions' metrics; bin/admin-metrics.ts)
 *
 * By default it works on the local platform (started with `npm start`; it reads the info file
 * in SPOKE_STATE_DIR). With --aws it uses the AWS environment: the TABLE_* names and the
 * SPOKE_USAGE_PLAN_* ids from the stack outputs, and registers keys (and each OAuth app's usage
 * key) with their usage plan; new signing keys are then KMS keys.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey, getApiKeyRecord, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../functions/auth/api-keys.ts';
import { plans, type Plan, type RateLimits } from '../platform/plans.ts';
import { OAUTH_APPS_USAGE_PLAN_ENV_VAR } from '../platform/deployment-settings.ts';
import { createUsagePlanKey, disableUsagePlanKey } from '../functions/auth/api-gateway-keys.ts';
import { apiGatewayRegistry, registerUsageKey } from '../functions/auth/usage-key-registration.ts';
import { usageKeySecretStore } from '../functions/auth/usage-keys.ts';
import {
  ClientRegistrationError,
  clientTypes,
  createClient,
  listClients,
  recordUsageKeyId,
  revokeClient,
  rotateClientSecret,
  updateRedirectUris,
  type ClientType,
  type OAuthClientRecord,
} from '../functions/oauth/clients.ts';
import { revokeGrantsOfClient } from '../functions/oauth/grants.ts';
import { listSigningKeys, rotateSigningKeys } from '../functions/oauth/signing-keys.ts';
import { localLogFile, localStateDir } from '../lib/local/paths.ts';
import { logToFile } from '../platform/logger.ts';
import { functionEnvironment, localUsageKeySecretsEnvironment } from '../lib/local/provision.ts';
import { eventsAdmin } from './admin-events.ts';
import { metricsCommand, MetricsUsageError } from './admin-metrics.ts';
import { ridersCommand, RidersUsageError } from './admin-riders.ts';
import { reportsCommand, ReviewUsageError } from './admin-reports.ts';
import { routesAdmin } from './admin-routes.ts';
import { usageKeysCommand, UsageKeysUsageError } from './admin-usage-keys.ts';

class UsageError extends Error {}

async function useLocalPlatform(): Promise<void> {
  const infoFile = join(localStateDir(), 'local-platform.json');
  let services: { dynamodb: string; s3: string; sqs: string };
  try {
    services = (JSON.parse(await readFile(infoFile, 'utf8')) as { services: typeof services }).services;
  } catch {
    throw new UsageError(`No local platform found (${infoFile} is missing). Start it with \`npm start\`, or pass --aws.`);
  }
  Object.assign(process.env, functionEnvironment(services), localUsageKeySecretsEnvironment(localStateDir()));
  // The commands' answers alone on the terminal: log lines (a graph loaded) go to the platform's log file.
  const logFile = localLogFile(localStateDir());
  if (logFile) logToFile(logFile);
}

function limitsFrom(values: Record<string, string | string[] | boolean | undefined>): RateLimits | undefined {
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

function describeClient(record: OAuthClientRecord): string {
  return [record.client_id, record.status.padEnd(7), record.type.padEnd(12), record.created_at, record.name, `\n    redirect URIs: ${record.redirect_uris.join(' ')}`].join('  ');
}

type Values = ReturnType<typeof parseCommandLine>['values'];

function parseCommandLine(argv: string[]) {
  return parseArgs({
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
      type: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      'revoke-grants': { type: 'boolean', default: false },
      // reports (bin/admin-reports.ts)
      status: { type: 'string' },
      limit: { type: 'string' },
      note: { type: 'string' },
      until: { type: 'string' },
      'against-geometry': { type: 'boolean' },
      reviewer: { type: 'string' },
    },
  });
}

/** Registration problems are the operator's to fix: shown as usage errors. */
async function registration<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ClientRegistrationError) throw new UsageError(error.message);
    throw error;
  }
}

async function clients(command: string | undefined, clientId: string | undefined, values: Values): Promise<void> {
  const needId = () => {
    if (!clientId) throw new UsageError(`Usage: admin clients ${command} <client id>`);
    return clientId;
  };
  switch (command) {
    case 'create': {
      if (!values.name) throw new UsageError('--name is required: the app name shown on the consent screen');
      const type = values.type as ClientType;
      if (!clientTypes.includes(type)) throw new UsageError(`--type must be one of ${clientTypes.join(', ')}`);
      const created = await registration(() => createClient({ name: values.name!, type, redirectUris: values['redirect-uri'] ?? [] }));
      if (values.aws) {
        try {
          const usageKeyId = await createUsagePlanKey({
            value: created.record.usage_key,
            name: `${created.record.client_id} ${created.record.name}`,
            usagePlanEnvVar: OAUTH_APPS_USAGE_PLAN_ENV_VAR,
          });
          await recordUsageKeyId(created.record.client_id, usageKeyId);
        } catch (error) {
          await revokeClient(created.record.client_id);
          throw new Error(`Usage-plan registration failed, so the new app was revoked: ${(error as Error).message}`);
        }
      }
      console.log(describeClient(created.record));
      console.log(`\nclient_id: ${created.record.client_id}`);
      if (created.secret) console.log(`client_secret (shown once; only its hash is stored): ${created.secret}`);
      return;
    }
    case 'list': {
      for (const record of await listClients()) console.log(describeClient(record));
      return;
    }
    case 'update-redirects': {
      const record = await registration(() => updateRedirectUris(needId(), values['redirect-uri'] ?? []));
      console.log(describeClient(record));
      console.log('\nNew authorization requests are checked against these URIs from now on.');
      return;
    }
    case 'rotate-secret': {
      const { record, secret } = await registration(() => rotateClientSecret(needId()));
      console.log(describeClient(record));
      console.log(`\nclient_secret (shown once; the old one no longer works): ${secret}`);
      if (values['revoke-grants']) {
        const revoked = await revokeGrantsOfClient(record.client_id, 'secret rotated by the operator');
        console.log(`Revoked ${revoked} rider grants: their refresh and access tokens stop working now.`);
      }
      return;
    }
    case 'revoke': {
      const { record, grantsRevoked } = await registration(() => revokeClient(needId()));
      if (values.aws && record.usage_key_id) await disableUsagePlanKey(record.usage_key_id);
      console.log(`Revoked ${record.client_id} for every rider (${grantsRevoked} grants): its refresh and access tokens stop working now.`);
      return;
    }
    default:
      throw new UsageError('Usage: admin clients create|list|update-redirects|rotate-secret|revoke ... (see bin/admin.ts)');
  }
}

async function signingKeys(command: string | undefined): Promise<void> {
  switch (command) {
    case 'list': {
      for (const key of await listSigningKeys()) {
        console.log([key.kid, key.status.padEnd(8), key.created_at, key.kms_key_id ?? 'local key'].join('  '));
      }
      return;
    }
    case 'rotate': {
      const key = await rotateSigningKeys();
      console.log(`New current signing key ${key.kid}; the previous one stays published until the next rotation.`);
      return;
    }
    default:
      throw new UsageError('Usage: admin signing-keys list|rotate');
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv.find((arg) => !arg.startsWith('--')) === 'events') {
    return eventsAdmin(argv, async (aws) => {
      if (!aws) await useLocalPlatform();
    });
  }
  if (['routes', 'parking'].includes(argv.find((arg) => !arg.startsWith('--')) ?? '')) {
    return routesAdmin(argv, async (aws) => {
      if (!aws) await useLocalPlatform();
    });
  }
  if (argv.find((arg) => !arg.startsWith('--')) === 'metrics') return metricsCommand(argv, Date.now());
  const { values, positionals } = parseCommandLine(argv);
  const [group, command, argument] = positionals;
  if (!group || !['keys', 'clients', 'signing-keys', 'usage-keys', 'riders', 'reports'].includes(group)) {
    throw new UsageError('Usage: admin keys|clients|signing-keys|usage-keys|events|routes|parking|riders|reports|metrics <command> ... (see bin/admin.ts)');
  }
  if (!values.aws) await useLocalPlatform();
  if (group === 'usage-keys') {
    try {
      return await usageKeysCommand(command, values.aws ?? false);
    } catch (error) {
      if (error instanceof UsageKeysUsageError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (group === 'riders') {
    try {
      return await ridersCommand(command, argument, values.aws ?? false);
    } catch (error) {
      if (error instanceof RidersUsageError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (group === 'reports') return reportsCommand(command, argument, values);
  if (group === 'clients') return clients(command, argument, values);
  if (group === 'signing-keys') return signingKeys(command);
  if (!command) throw new UsageError('Usage: admin keys create|list|revoke ... (see bin/admin.ts)');

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
          const store = usageKeySecretStore();
          if (!store) throw new Error('USAGE_KEY_SECRET gives one fixed secret; registering needs USAGE_KEY_SECRET_ARN');
          await registerUsageKey({ keyId: created.record.key_id, name: created.record.name, plan }, apiGatewayRegistry, store);
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
  const usage = error instanceof UsageError || error instanceof ReviewUsageError || error instanceof MetricsUsageError;
  console.error(usage ? (error as Error).message : `admin failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(usage ? 2 : 1);
});
