/**
 * `npm start`: the whole platform on this machine. Settings (all optional):
 *   SPOKE_STATE_DIR      state folder (default .local-data): DynamoDB, S3 objects, graphs, info file
 *   SPOKE_DATA_PATH      input data (default ../shared/data)
 *   SPOKE_BASE_PORT, SPOKE_APP_PORT, SPOKE_DYNAMODB_PORT, SPOKE_S3_PORT, SPOKE_SQS_PORT, SPOKE_IDP_PORT,
 *   SPOKE_PLAYGROUND_PORT (0 = any free port)
 *   SPOKE_CITIES         comma-separated city ids to build and serve (default: all four)
 *   SPOKE_TEST_CLOCK=1   tests only: honour the X-Spoke-Test-Clock-Offset request header (lib/local/launch.ts)
 *   SPOKE_CITY_ROUTERS   where the cities' routing functions run: `threads` (default, a worker thread per
 *                        city) or `in-process` (benchmarks compare the two; lib/local/launch.ts)
 *   --reset              start from empty tables, buckets and identity-provider users
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkDataFolder, DataFolderError, localLogFile, localStateDir } from '../lib/local/paths.ts';
import { LOG_FILE_ENV, logToFile } from '../platform/logger.ts';
import { cityRoutersFromEnvironment, portsFromEnvironment, startLocalPlatform, type LocalPlatform } from '../lib/local/launch.ts';
import { citiesFromEnvironment, prepareLocalGraphs } from '../lib/local/graphs.ts';
import { PLAYGROUND_KEY_LIMITS, seedDemoCredentials, WALKTHROUGH_KEY_LIMITS } from '../lib/local/seed.ts';
import { seedDemoRides } from '../lib/local/demo-rides.ts';
import { seedEvents } from '../lib/local/event-seeds.ts';
import { seedCustomRoutes } from '../lib/local/custom-route-seeds.ts';
import { publishLocalParking } from '../lib/local/parking.ts';
import { forgetLoadedGraphs } from '../functions/graphs/graph-store.ts';
import { PortInUseError } from '../lib/local/servers.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const stateDir = localStateDir();
const limitsText = (limits: typeof PLAYGROUND_KEY_LIMITS) =>
  `${limits.perMinute.toLocaleString('en')} a minute, ${limits.perHour.toLocaleString('en')} an hour, ${limits.perDay.toLocaleString('en')} a day`;
const infoFile = join(stateDir, 'local-platform.json');

async function main(): Promise<void> {
  // Graphs, bike-share feeds and parking all come from the data folder: say so before starting anything.
  await checkDataFolder();
  await mkdir(stateDir, { recursive: true });
  // Log lines to a file, and the banner alone on the terminal; the cities' routing threads inherit the setting.
  const logFile = localLogFile(stateDir);
  if (logFile) {
    process.env[LOG_FILE_ENV] = logFile;
    logToFile(logFile);
  }
  const ports = portsFromEnvironment();
  let platform: LocalPlatform;
  try {
    platform = await startLocalPlatform({
      stateDir,
      ports,
      reset: process.argv.includes('--reset'),
      testClock: process.env.SPOKE_TEST_CLOCK === '1',
      cityRouters: cityRoutersFromEnvironment(),
      log: (line) => console.error(line),
    });
  } catch (error) {
    if (error instanceof PortInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  try {
    await prepareLocalGraphs(citiesFromEnvironment(), (line) => console.log(line));
  } catch (error) {
    await platform.stop();
    throw error;
  }
  const demo = await seedDemoCredentials(infoFile, platform.identityProvider);
  await seedEvents({ cities: citiesFromEnvironment(), createdBy: demo.rider_idp_user_id, nowMs: Date.now(), log: (line) => console.log(line) });
  // The demo rider's history, some of it on the events just seeded.
  await seedDemoRides(demo.rider_idp_user_id);
  await publishLocalParking(citiesFromEnvironment(), (line) => console.log(line));
  await seedCustomRoutes({ cities: citiesFromEnvironment(), log: (line) => console.log(line) });
  // Seeding planned the leisure routes with the routing code in this process; the local Lambdas
  // start cold all the same, as deployed ones do, and load their graphs on their first request.
  forgetLoadedGraphs();
  platform.playground?.server.useDemo(demo);
  const info = {
    base_url: platform.urls.base,
    app_base_url: platform.urls.app,
    consent_url: `${platform.urls.base}/auth/v1/consent`,
    playground_url: platform.playground?.url ?? null,
    services: { dynamodb: platform.urls.dynamodb, s3: platform.urls.s3, sqs: platform.urls.sqs, gbfs_fixtures: platform.urls.gbfsFixtures },
    identity_provider: { url: platform.urls.idp, admin_secret: platform.identityProvider.adminSecret },
    state_dir: stateDir,
    demo,
    pid: process.pid,
    started_at: new Date().toISOString(),
  };
  console.log(
    [
      '',
      'Spoke platform is running locally.',
      `  {base_url}      ${info.base_url}`,
      `  {app_base_url}  ${info.app_base_url}`,
      `  Playground      ${info.playground_url}  (open in a browser: the safety map and routes; docs/playground.md)`,
      `  DynamoDB        ${info.services.dynamodb} (dynalite)`,
      `  S3              ${info.services.s3} (s3rver)`,
      `  SQS             ${info.services.sqs} (in-process queues)`,
      `  Identity        ${info.identity_provider.url} (local identity provider, stands in for Cognito)`,
      `  Bike feeds      ${info.services.gbfs_fixtures} (recorded GBFS and TfL feeds, replayed; docs/bikeshare.md)`,
      '',
      `  Demo API key (free plan):  ${demo.api_key}`,
      `  Playground key:            ${demo.playground_api_key}  (enterprise plan, ${limitsText(PLAYGROUND_KEY_LIMITS)}; the playground's own)`,
      `  Walk-through key:          ${demo.walkthrough_api_key}  (enterprise plan, ${limitsText(WALKTHROUGH_KEY_LIMITS)}; the README's and docs' examples)`,
      `  Demo partner key:          ${demo.partner_api_key}  (source "${demo.partner_source}")`,
      `  Demo rider:                ${demo.rider_email} / ${demo.rider_password}`,
      `  Demo OAuth app (public):   ${demo.oauth_client_id}  (redirect ${demo.oauth_redirect_uri})`,
      `  OAuth metadata:            ${info.base_url}/.well-known/oauth-authorization-server`,
      `  URLs and demo credentials: ${infoFile}`,
      `  Log lines (JSON):          ${localLogFile(stateDir) ?? 'here (SPOKE_LOG_STDOUT=1)'}`,
      '',
      'Try:',
      `  curl -s -X POST ${info.base_url}/directions/v2/ \\`,
      `    -H 'apikey: ${demo.api_key}' -H 'Content-Type: application/json' \\`,
      `    -d '{"coordinates": [[-0.1328, 51.5212], [-0.1240, 51.5255]]}'`,
      '',
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  // Last: scripts and tests wait for this file, so it appears once the platform has said where it is.
  await writeFile(infoFile, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received: stopping the local platform...`);
    await platform.stop();
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof DataFolderError) {
    console.error(`The local platform could not start. ${error.message}`);
    process.exit(1);
  }
  console.error(`The local platform could not start: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
