import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../project-root.ts';
import type { Context, PostAuthenticationTriggerEvent } from 'aws-lambda';
import { riderSignInTriggerEntry } from '../../platform/endpoints.ts';
import { queues, type QueueDefinition } from '../../platform/resources.ts';
import { RIDER_SESSION_USAGE_KEY_ENV_VAR } from '../../platform/deployment-settings.ts';
import { useCityInvoker } from '../../functions/dispatch/city-invoker.ts';
import { useDynamoTransport } from '../../platform/aws.ts';
import { startLocalBikeShare } from './bikeshare.ts';
import { inProcessCityInvoker, shortTripsWhileIdleInProcess } from './city-routers.ts';
import { cityRouterThreads } from './city-router-threads.ts';
import { inProcessDynamoTransport } from './dynamo-in-process.ts';
import { createGatewayServer } from './gateway.ts';
import { CONSENT_CLIENT_ID, LocalIdentityProvider, RIDER_APP_CLIENT_ID, RIDER_APP_REDIRECT_URI, type LocalUser } from './identity-provider.ts';
import { enableConcurrentInvocations, invoke } from './invocations.ts';
import { answerOnlyLocalRequests } from './local-requests.ts';
import { startMetricsLog } from './metrics-log.ts';
import { citiesFromEnvironment } from './graphs.ts';
import { Playground } from './playground/server.ts';
import { functionEnvironment, localUsageKeySecretsEnvironment, provisionResources } from './provision.ts';
import { lambdaContext, LOCAL_ACCOUNT, LocalQueue } from './queue.ts';
import { closeServer, listen, startDynamo, startS3 } from './servers.ts';
import type { LocalScheduler } from './scheduler.ts';
import { sqsRequestListener } from './sqs-endpoint.ts';
import { startWorkers } from './worker-triggers.ts';

/**
 * The whole platform on one machine: dynalite and s3rver on loopback, the resources the stack
 * defines, the in-process queues behind an SQS endpoint, two API gateways running the same
 * handler modules the Lambdas run, and the local identity provider standing in for Cognito.
 */

export interface LocalPorts {
  base: number;
  app: number;
  dynamodb: number;
  s3: number;
  sqs: number;
  idp: number;
  /** The map playground (docs/playground.md); not started when absent. */
  playground?: number;
}

export const portSettings: Record<keyof LocalPorts, { envVar: string; defaultPort: number; service: string }> = {
  base: { envVar: 'SPOKE_BASE_PORT', defaultPort: 3000, service: 'the base API ({base_url})' },
  app: { envVar: 'SPOKE_APP_PORT', defaultPort: 3001, service: 'the app API ({app_base_url})' },
  dynamodb: { envVar: 'SPOKE_DYNAMODB_PORT', defaultPort: 4567, service: 'DynamoDB (dynalite)' },
  s3: { envVar: 'SPOKE_S3_PORT', defaultPort: 4568, service: 'S3 (s3rver)' },
  sqs: { envVar: 'SPOKE_SQS_PORT', defaultPort: 4569, service: 'the local SQS endpoint' },
  idp: { envVar: 'SPOKE_IDP_PORT', defaultPort: 3002, service: 'the local identity provider' },
  playground: { envVar: 'SPOKE_PLAYGROUND_PORT', defaultPort: 3003, service: 'the map playground' },
};

export function portsFromEnvironment(environment: NodeJS.ProcessEnv = process.env): LocalPorts {
  const ports = {} as LocalPorts;
  for (const [name, setting] of Object.entries(portSettings) as [keyof LocalPorts, (typeof portSettings)[keyof LocalPorts]][]) {
    const raw = environment[setting.envVar];
    const port = raw === undefined || raw === '' ? setting.defaultPort : Number(raw);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new Error(`${setting.envVar} must be a port number between 0 and 65535, not "${raw}"`);
    }
    ports[name] = port;
  }
  return ports;
}

export type CityRouterPlacement = 'threads' | 'in-process';

/** `SPOKE_CITY_ROUTERS`: where `npm start` runs the cities' routing functions (default: threads). */
export function cityRoutersFromEnvironment(environment: NodeJS.ProcessEnv = process.env): CityRouterPlacement {
  const raw = environment.SPOKE_CITY_ROUTERS?.trim() || 'threads';
  if (raw !== 'threads' && raw !== 'in-process') throw new Error(`SPOKE_CITY_ROUTERS must be "threads" or "in-process", not "${raw}"`);
  return raw;
}

export interface LocalPlatformOptions {
  stateDir: string;
  ports: LocalPorts;
  host?: string;
  /** Start from empty tables and buckets. */
  reset?: boolean;
  /**
   * Honour `X-Spoke-Test-Clock-Offset` (seconds) and `X-Spoke-Test-Clock-At` (an instant) on
   * requests, running each such request as if the clock read that much later or that instant
   * (platform/clock.ts). For tests only; `SPOKE_TEST_CLOCK=1`.
   */
  testClock?: boolean;
  /**
   * Serve the recorded bike-share feeds and run the ingestion at start and every minute
   * (lib/local/bikeshare.ts). Default true; tests that drive the ingestion themselves turn it off.
   */
  bikeShare?: boolean;
  /** Tests only: shorter queue timings than resources.ts defines, so retries happen in seconds. */
  queueTiming?: Partial<Pick<QueueDefinition, 'visibilityTimeoutSeconds' | 'maxBatchingWindowSeconds'>>;
  /**
   * Where the cities' routing functions run: each in a worker thread of its own (default), as each
   * runs in its own containers in AWS, so a heavy request for one city delays neither another
   * city's requests nor the gateway (lib/local/city-router-threads.ts); or in this thread, for a
   * caller that times or inspects them in process. In threads, a short directions trip asked while
   * no routing invocation is running runs in this thread (city-routers.ts `shortTripsWhileIdleInProcess`).
   */
  cityRouters?: CityRouterPlacement;
  log?: (line: string) => void;
}

export interface LocalPlatform {
  urls: { base: string; app: string; dynamodb: string; s3: string; sqs: string; idp: string; gbfsFixtures: string | null };
  queues: ReadonlyMap<string, LocalQueue>;
  identityProvider: LocalIdentityProvider;
  /** The scheduled workers (platform/workers.ts). */
  scheduler: LocalScheduler;
  /** The map playground (null when not started), and its address. */
  playground: { server: Playground; url: string } | null;
  stop(): Promise<void>;
}

/**
 * What the stack gives the functions about the authorization server and the identity provider,
 * known here only once the listeners have their addresses.
 */
export function identityEnvironment(urls: { base: string; idp: string }): Record<string, string> {
  return {
    OAUTH_ISSUER: urls.base,
    RIDER_IDP_ISSUER: urls.idp,
    RIDER_IDP_JWKS_URI: `${urls.idp}/.well-known/jwks.json`,
    RIDER_IDP_AUTHORIZE_URL: `${urls.idp}/oauth2/authorize`,
    RIDER_IDP_TOKEN_URL: `${urls.idp}/oauth2/token`,
    RIDER_IDP_CONSENT_CLIENT_ID: CONSENT_CLIENT_ID,
    RIDER_IDP_APP_CLIENT_IDS: RIDER_APP_CLIENT_ID,
    // The local gateway only checks that the authorizer names a usage key; AWS meters by it.
    [RIDER_SESSION_USAGE_KEY_ENV_VAR]: 'local-rider-sessions',
  };
}

/** The event Cognito sends its PostAuthentication trigger, for a local identity-provider user. */
function postAuthenticationEvent(user: LocalUser, clientId: string): PostAuthenticationTriggerEvent {
  return {
    version: '1',
    triggerSource: 'PostAuthentication_Authentication',
    region: 'local',
    userPoolId: 'local',
    userName: user.sub,
    callerContext: { awsSdkVersion: 'local', clientId },
    request: { userAttributes: { sub: user.sub, email: user.email, email_verified: 'true', name: user.name }, newDeviceUsed: false },
    response: {},
  };
}

export async function startLocalPlatform(options: LocalPlatformOptions): Promise<LocalPlatform> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  const target = (name: keyof LocalPorts) => ({ port: options.ports[name] ?? 0, host, ...portSettings[name] });
  const url = (port: number) => `http://${host}:${port}`;
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch((error) => log(`shutdown step failed: ${(error as Error).message}`));
  };

  try {
    // This process hosts every function, many invocations at once, as Lambda's concurrent runtime does.
    await enableConcurrentInvocations();
    // What the functions' metrics would be in CloudWatch, readable with `npm run admin -- metrics`.
    const metricsLog = await startMetricsLog(options.stateDir);
    stops.push(() => metricsLog.stop());
    if (options.reset) {
      for (const folder of ['dynamodb', 's3', 'identity-provider']) await rm(join(options.stateDir, folder), { recursive: true, force: true });
    }
    const dynamo = await startDynamo(join(options.stateDir, 'dynamodb'), target('dynamodb'));
    stops.push(() => dynamo.close());
    // This thread's functions reach the endpoint by a call; the cities' threads, over HTTP.
    useDynamoTransport(inProcessDynamoTransport(dynamo.listener));
    const s3 = await startS3(join(options.stateDir, 's3'), target('s3'));
    stops.push(() => s3.server.close());

    const localQueues = new Map<string, LocalQueue>();
    const sqsServer = createServer();
    const sqsPort = await listen(sqsServer, target('sqs'));
    stops.push(() => closeServer(sqsServer));
    sqsServer.on('request', sqsRequestListener(localQueues, () => url(sqsPort)));
    answerOnlyLocalRequests(sqsServer, { pagesOfAnyOrigin: false });

    const endpoints = { dynamodb: url(dynamo.port), s3: url(s3.port), sqs: url(sqsPort) };
    Object.assign(process.env, functionEnvironment(endpoints));
    for (const definition of Object.values(queues)) {
      const name = `spoke-${definition.name}`;
      const timed = { ...definition, ...options.queueTiming };
      const queue = LocalQueue.fromDefinition(timed, name, (error) => log(`queue ${name}: consumer failed: ${(error as Error).message}`));
      localQueues.set(name, queue);
      localQueues.set(queue.deadLetterQueue!.options.name, queue.deadLetterQueue!);
      process.env[definition.envVar] = `${endpoints.sqs}/${LOCAL_ACCOUNT}/${name}`;
    }
    stops.push(async () => {
      for (const queue of localQueues.values()) await queue.stop();
    });
    await provisionResources(endpoints);
    const bikeShare = options.bikeShare === false ? null : await startLocalBikeShare(host, log);
    if (bikeShare) stops.push(() => bikeShare.stop());

    const load = (entry: string) => import(pathToFileURL(join(projectRoot, entry)).href) as Promise<{ handler: unknown }>;
    const onError = (message: string, error: unknown) => log(`gateway: ${message}: ${(error as Error)?.stack ?? String(error)}`);
    // The routing endpoints' dispatch hands each request to its city's function.
    if (options.cityRouters === 'in-process') useCityInvoker(inProcessCityInvoker(load));
    else {
      const routers = cityRouterThreads({ onMetrics: metricsLog.append, log });
      useCityInvoker(shortTripsWhileIdleInProcess(routers.invoker, inProcessCityInvoker(load), routers.start));
      stops.push(() => routers.stop());
    }
    const testClock = options.testClock ?? false;
    const servers: Record<'base' | 'app', Server> = {
      base: createGatewayServer({ api: 'base', load, onError, testClock }),
      app: createGatewayServer({ api: 'app', load, onError, testClock }),
    };
    // The APIs answer pages of any origin, as API Gateway does with its CORS rules.
    for (const server of Object.values(servers)) answerOnlyLocalRequests(server, { pagesOfAnyOrigin: true });
    const basePort = await listen(servers.base, target('base'));
    stops.push(() => closeServer(servers.base));
    const appPort = await listen(servers.app, target('app'));
    stops.push(() => closeServer(servers.app));

    const identityProvider = new LocalIdentityProvider(options.stateDir, randomBytes(32).toString('base64url'));
    await identityProvider.load();
    const idpServer = createServer(identityProvider.listener);
    answerOnlyLocalRequests(idpServer, { pagesOfAnyOrigin: true });
    const idpPort = await listen(idpServer, target('idp'));
    stops.push(() => closeServer(idpServer));
    const urls = { base: url(basePort), app: url(appPort), idp: url(idpPort), gbfsFixtures: bikeShare?.fixturesUrl ?? null, ...endpoints };
    identityProvider.setUrl(urls.idp);
    identityProvider.allowClient(CONSENT_CLIENT_ID, [`${urls.base}/auth/v1/consent/idp-callback`]);
    identityProvider.allowClient(RIDER_APP_CLIENT_ID, [RIDER_APP_REDIRECT_URI]);
    const signInTrigger = (await load(riderSignInTriggerEntry)).handler as (event: PostAuthenticationTriggerEvent, context: Context) => Promise<unknown>;
    identityProvider.onSignIn(async (user) => {
      try {
        const context = lambdaContext('rider-sign-in', 5);
        await invoke(context, () => signInTrigger(postAuthenticationEvent(user, 'local'), context));
      } catch (error) {
        log(`identity provider: sign-in trigger failed: ${(error as Error).message}`);
        throw error;
      }
    });
    Object.assign(process.env, identityEnvironment(urls));
    // What customer keys' usage-key values are derived under (functions/auth/usage-keys.ts): a
    // file of versions, which `npm run admin -- usage-keys rotate-secret` rotates.
    Object.assign(process.env, localUsageKeySecretsEnvironment(options.stateDir));

    const scheduler = await startWorkers({ queues: localQueues, load, log });
    stops.push(() => scheduler.stop());

    let playground: LocalPlatform['playground'] = null;
    if (options.ports.playground !== undefined) {
      const server = new Playground({ urls, riderAppClientId: RIDER_APP_CLIENT_ID, cities: citiesFromEnvironment(), log });
      const listener = createServer(server.listener);
      // Its config.json holds an enterprise key and the demo rider's password: never to a rebound name.
      answerOnlyLocalRequests(listener, { pagesOfAnyOrigin: true });
      const port = await listen(listener, target('playground'));
      stops.push(() => closeServer(listener));
      playground = { server, url: url(port) };
      // The page signs riders in as the platform's own rider app, and they come back to it.
      identityProvider.allowClient(RIDER_APP_CLIENT_ID, [RIDER_APP_REDIRECT_URI, ...Playground.redirectUris(port)]);
    }

    return { urls, queues: localQueues, identityProvider, scheduler, playground, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
