import type { CityId } from '../core/cities/index.ts';
import type { BucketName, QueueName, TableName } from './resources.ts';

/**
 * Every HTTP endpoint of the platform, defined once. The CDK stack turns each entry into a
 * Lambda function behind API Gateway; the local gateway routes to the same handler modules.
 */

export type ApiName = 'base' | 'app';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * `credential`: the request authorizer resolves an API key (or, where `oauthAccess` says so, a
 * third-party app's OAuth access token) before the handler runs. `rider`: the identity
 * provider's bearer token of a signed-in rider (spec 4.6). `public`: no credential.
 */
export type EndpointAuth = 'credential' | 'rider' | 'public';

export interface ApiDefinition {
  /**
   * Whether API Gateway usage plans meter this API: then every credentialed method needs a
   * usage-plan key, which the authorizer returns as `usageIdentifierKey` (an API key, or the
   * OAuth app's usage key). Only `{base_url}` is sold by plan (spec 8).
   */
  readonly meteredByUsagePlans: boolean;
}

export const apiDefinitions: Readonly<Record<ApiName, ApiDefinition>> = {
  base: { meteredByUsagePlans: true },
  app: { meteredByUsagePlans: false },
};

export interface ResourceAccess {
  readonly tables?: Partial<Record<TableName, 'read' | 'readwrite'>>;
  readonly buckets?: Partial<Record<BucketName, 'read' | 'readwrite'>>;
  readonly queues?: Partial<Record<QueueName, 'send' | 'consume'>>;
  /** Signs tokens with the OAuth signing keys (in AWS: `kms:Sign` on the keys tagged for it). */
  readonly signingKeys?: 'sign';
  /** Sends email (in AWS: `ses:SendEmail` from the platform's sender identity). */
  readonly email?: 'send';
}

export interface EndpointDefinition {
  readonly id: string;
  readonly api: ApiName;
  /** API Gateway resource paths without trailing slash; `{name}` is a path parameter. */
  readonly paths: readonly string[];
  readonly methods: readonly HttpMethod[];
  /** Module exporting `handler`, relative to the project root. */
  readonly entry: string;
  readonly auth: EndpointAuth;
  /**
   * A third-party app's OAuth access token is accepted here (spec 5.5: exactly five endpoints,
   * documented in the README). Elsewhere on `{base_url}` such a token answers 401, on
   * `{app_base_url}` 403.
   */
  readonly oauthAccess?: true;
  /**
   * Takes an `Idempotency-Key` on its methods that carry a body (IETF httpapi draft): the same
   * key and body within 24 hours get the first answer again, another body 422, a repeat while the
   * first is running 409 (functions/http/idempotent-answers.ts, on the `idempotency` table).
   * Credentialed endpoints only: a key belongs to its caller.
   */
  readonly idempotent?: true;
  /**
   * A routing endpoint: its function (`entry`, the dispatch) finds the request's city and hands the
   * event to that city's routing function, which runs this handler module (functions/dispatch/).
   */
  readonly routedByCity?: string;
  readonly access: ResourceAccess;
  readonly memoryMb?: number;
  readonly timeoutSeconds?: number;
  /**
   * Packages with native code that are installed beside the function's bundle for the Lambda's
   * platform (linux-arm64) instead of being bundled (lib/spoke-function.ts).
   */
  readonly nativeModules?: readonly string[];
}

/** What every credentialed handler touches: the rate-limit counters. */
const rateLimited: ResourceAccess = { tables: { rateLimits: 'readwrite' } };

/**
 * The routing endpoints' own functions: each finds a request's city from its coordinates and
 * invokes that city's routing function with the event (functions/dispatch/). They hold no graph and
 * touch no table, and are billed while they wait, so they are small.
 */
export const ROUTING_DISPATCH_ENTRY = 'functions/dispatch/dispatch-handler.ts';
const ROUTING_DISPATCH_MEMORY_MB = 256;

/**
 * One function per city behind the routing endpoints (`routedByCity`): it runs the endpoint's
 * usual handler (admission, validation, rate limit, the route) on the event the dispatch forwards,
 * and holds that city's graph alone (platform/function-memory.ts). Its timeout is a
 * second under the dispatch's, so a city function out of time ends before the dispatch waiting on it.
 */
export const cityRouterEntry = 'functions/dispatch/city-router-handler.ts';
export const CITY_ROUTER_TIMEOUT_SECONDS = 28;
/** The variable through which a dispatch learns the name of a city's routing function. */
export const routerFunctionEnvVar = (city: CityId): string => `ROUTER_FUNCTION_${city.toUpperCase().replace(/-/g, '_')}`;
export const cityRouterAccess: ResourceAccess = {
  tables: { ...rateLimited.tables, routeAvoidances: 'read', customRoutes: 'read', destinations: 'read', categories: 'read' },
  buckets: { graphs: 'read', bikeshare: 'read' },
};

/**
 * Where the consent screen and its identity-provider callback sit under `{base_url}`: the
 * authorization server sends riders there (functions/oauth/config.ts), and the stack registers
 * the callback with the identity provider (lib/rider-identity.ts).
 */
export const consentPath = '/auth/v1/consent';
export const idpCallbackPath = `${consentPath}/idp-callback`;

export const endpoints: readonly EndpointDefinition[] = [
  {
    id: 'directions',
    api: 'base',
    paths: ['/directions/v2', '/directions'],
    methods: ['POST'],
    entry: ROUTING_DISPATCH_ENTRY,
    auth: 'credential',
    oauthAccess: true,
    routedByCity: 'functions/directions/directions-handler.ts',
    access: {},
    memoryMb: ROUTING_DISPATCH_MEMORY_MB,
    timeoutSeconds: 29,
  },
  {
    id: 'multi-modal',
    api: 'base',
    paths: ['/multi-modal/v2', '/multi-modal'],
    methods: ['POST'],
    entry: ROUTING_DISPATCH_ENTRY,
    auth: 'credential',
    oauthAccess: true,
    routedByCity: 'functions/multimodal/multi-modal-handler.ts',
    access: {},
    memoryMb: ROUTING_DISPATCH_MEMORY_MB,
    timeoutSeconds: 29,
  },
  // Why the safer route differs from the direct one, in one sentence (spec 4.3); docs/explain.md.
  {
    id: 'explain-supersafe',
    api: 'base',
    paths: ['/explain-supersafe'],
    methods: ['POST'],
    entry: ROUTING_DISPATCH_ENTRY,
    auth: 'credential',
    oauthAccess: true,
    routedByCity: 'functions/explain/explain-supersafe-handler.ts',
    access: {},
    memoryMb: ROUTING_DISPATCH_MEMORY_MB,
    timeoutSeconds: 29,
  },
  // Rider login for third-party apps (spec 4.5, 5.5): OAuth 2.1 with PKCE.
  {
    id: 'oauth-authorize',
    api: 'base',
    paths: ['/auth/v1/oauth/authorize'],
    methods: ['GET'],
    entry: 'functions/oauth/authorize-handler.ts',
    auth: 'public',
    access: { tables: { oauthClients: 'read', oauthRequests: 'readwrite' } },
  },
  {
    id: 'oauth-consent',
    api: 'base',
    paths: [consentPath],
    methods: ['GET', 'POST'],
    entry: 'functions/oauth/consent-handler.ts',
    auth: 'public',
    access: {
      tables: {
        oauthClients: 'read',
        oauthRequests: 'readwrite',
        oauthCodes: 'readwrite',
        riders: 'read',
        emailSignInCodes: 'readwrite',
        rateLimits: 'readwrite',
      },
      email: 'send',
    },
  },
  {
    id: 'oauth-consent-idp-callback',
    api: 'base',
    paths: [idpCallbackPath],
    methods: ['GET'],
    entry: 'functions/oauth/idp-callback-handler.ts',
    auth: 'public',
    access: { tables: { oauthRequests: 'readwrite' } },
  },
  {
    id: 'oauth-token',
    api: 'base',
    paths: ['/auth/v1/oauth/token'],
    methods: ['POST'],
    entry: 'functions/oauth/token-handler.ts',
    auth: 'public',
    access: {
      tables: {
        oauthClients: 'read',
        oauthCodes: 'readwrite',
        oauthGrants: 'readwrite',
        oauthRefreshTokens: 'readwrite',
        oauthSigningKeys: 'read',
      },
      signingKeys: 'sign',
    },
  },
  {
    id: 'oauth-revoke',
    api: 'base',
    paths: ['/auth/v1/oauth/revoke'],
    methods: ['POST'],
    entry: 'functions/oauth/revoke-handler.ts',
    auth: 'public',
    access: {
      tables: { oauthClients: 'read', oauthGrants: 'readwrite', oauthRefreshTokens: 'read', oauthSigningKeys: 'read' },
    },
  },
  {
    id: 'oauth-jwks',
    api: 'base',
    paths: ['/auth/v1/oauth/jwks'],
    methods: ['GET'],
    entry: 'functions/oauth/jwks-handler.ts',
    auth: 'public',
    access: { tables: { oauthSigningKeys: 'read' } },
  },
  {
    id: 'oauth-metadata',
    api: 'base',
    paths: ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'],
    methods: ['GET'],
    entry: 'functions/oauth/metadata-handler.ts',
    auth: 'public',
    access: {},
  },
  // Rider endpoints (spec 4.6); docs/riders.md.
  {
    id: 'user-profile',
    api: 'app',
    paths: ['/user'],
    methods: ['GET', 'PATCH'],
    entry: 'functions/riders/user-handler.ts',
    auth: 'rider',
    access: { tables: { ...rateLimited.tables, riders: 'readwrite', riderNameTrigrams: 'readwrite' } },
  },
  {
    id: 'user-photo',
    api: 'app',
    paths: ['/user/upload-photo'],
    methods: ['POST'],
    entry: 'functions/riders/photo-handler.ts',
    auth: 'rider',
    access: { tables: { ...rateLimited.tables, riders: 'readwrite', imageUploads: 'readwrite' }, buckets: { photos: 'readwrite' } },
    // sharp's native build for the Lambda's platform, installed beside the bundle.
    nativeModules: ['sharp'],
    memoryMb: 1769,
    timeoutSeconds: 29,
  },
  {
    id: 'user-rides',
    api: 'app',
    paths: ['/user/routes'],
    methods: ['GET', 'POST'],
    entry: 'functions/rides/rides-handler.ts',
    auth: 'rider',
    idempotent: true,
    access: {
      tables: { ...rateLimited.tables, riders: 'read', rides: 'readwrite', events: 'readwrite', destinations: 'read', categories: 'read', idempotency: 'readwrite' },
    },
    timeoutSeconds: 15,
  },
  {
    id: 'user-ride',
    api: 'app',
    paths: ['/user/routes/{id}'],
    methods: ['GET'],
    entry: 'functions/rides/ride-handler.ts',
    auth: 'rider',
    access: { tables: { ...rateLimited.tables, riders: 'read', rides: 'read', events: 'read', destinations: 'read', categories: 'read' } },
  },
  {
    id: 'user-stats',
    api: 'app',
    paths: ['/user/stats'],
    methods: ['GET'],
    entry: 'functions/rides/stats-handler.ts',
    auth: 'rider',
    access: { tables: { ...rateLimited.tables, riders: 'read', rides: 'read' } },
  },
  {
    id: 'user-search',
    api: 'app',
    paths: ['/api/users/search'],
    methods: ['GET'],
    entry: 'functions/riders/search-handler.ts',
    auth: 'rider',
    access: { tables: { ...rateLimited.tables, riders: 'read', riderNameTrigrams: 'read' } },
  },
  // Bike-share availability (spec 4.7): snapshots written by the ingestion (lib/bike-share.ts).
  {
    id: 'bikes-nearby',
    api: 'app',
    paths: ['/bikes/nearby'],
    methods: ['GET'],
    entry: 'functions/bikeshare/nearby-handler.ts',
    auth: 'rider',
    access: { ...rateLimited, buckets: { bikeshare: 'read' } },
  },
  // Cycling events and leisure routes near a point (spec 4.8): public.
  {
    id: 'events-nearby',
    api: 'app',
    paths: ['/events/nearby'],
    methods: ['GET'],
    entry: 'functions/events/nearby-handler.ts',
    auth: 'public',
    access: { tables: { events: 'read', destinations: 'read', categories: 'read' } },
  },
  // Road reports (spec 4.4); docs/reports.md. The analysis and the outbox are workers (workers.ts).
  {
    id: 'reports-submit',
    api: 'base',
    paths: ['/reports'],
    methods: ['POST'],
    entry: 'functions/reports/submit-handler.ts',
    auth: 'credential',
    oauthAccess: true,
    idempotent: true,
    access: { tables: { ...rateLimited.tables, reports: 'readwrite', reportAudit: 'readwrite', idempotency: 'readwrite' }, queues: { reportAnalysis: 'send' } },
  },
  {
    id: 'reports-status',
    api: 'base',
    paths: ['/reports/{id}'],
    methods: ['GET'],
    entry: 'functions/reports/status-handler.ts',
    auth: 'credential',
    oauthAccess: true,
    access: { tables: { ...rateLimited.tables, reports: 'read' } },
  },
  // The API's OpenAPI 3.1 document, generated from the schemas the handlers use (functions/openapi/).
  {
    id: 'openapi-base',
    api: 'base',
    paths: ['/openapi.json'],
    methods: ['GET'],
    entry: 'functions/openapi/base-handler.ts',
    auth: 'public',
    access: {},
  },
  {
    id: 'openapi-app',
    api: 'app',
    paths: ['/openapi.json'],
    methods: ['GET'],
    entry: 'functions/openapi/app-handler.ts',
    auth: 'public',
    access: {},
  },
];

/**
 * Path families with per-endpoint versions (spec 9). Any sub-path of these that is not a defined
 * version answers 404 `Unknown endpoint or API version`, as does every other unknown path.
 */
export const versionedFamilies: readonly string[] = ['/directions', '/multi-modal'];

/** Answers every path no endpoint defines, on both APIs. */
export const fallbackEntry = 'functions/http/fallback-handler.ts';

/** The REQUEST authorizer in front of every `credential` and `rider` endpoint. */
export const authorizerEntry = 'functions/authorizer/authorizer-handler.ts';
export const authorizerAccess: ResourceAccess = {
  tables: { apiKeys: 'read', oauthClients: 'read', oauthGrants: 'read', oauthSigningKeys: 'read' },
};

/**
 * The identity provider's post-authentication trigger (Cognito `PostAuthentication`; the local
 * identity provider calls it too): creates a rider's account on first sign-in.
 */
export const riderSignInTriggerEntry = 'functions/riders/sign-in-trigger-handler.ts';
export const riderSignInTriggerAccess: ResourceAccess = { tables: { riders: 'readwrite', riderNameTrigrams: 'readwrite' } };

/**
 * The endpoint an authorizer event is for, by its API Gateway resource path. Resource paths of
 * authorized endpoints are unique across both APIs (a unit test holds this), so the path alone
 * names the endpoint whichever API the one authorizer function is serving.
 */
export function authorizedEndpointAt(resource: string): EndpointDefinition | undefined {
  return endpoints.find((definition) => definition.auth !== 'public' && definition.paths.includes(resource));
}

/** The definition of an endpoint by id; a handler naming an unknown id is a programming error. */
export function endpointDefinition(id: string): EndpointDefinition {
  const definition = endpoints.find((candidate) => candidate.id === id);
  if (!definition) throw new Error(`No endpoint named ${id} in platform/endpoints.ts`);
  return definition;
}
