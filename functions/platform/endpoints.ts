import type { BucketName, QueueName, TableName } from './resources.ts';

/**
 * Every HTTP endpoint of the platform, defined once. The CDK stack turns each entry into a
 * Lambda function behind API Gateway; the local gateway routes to the same handler modules.
 */

export type ApiName = 'base' | 'app';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * `credential`: the request authorizer resolves an API key (later also rider sessions and OAuth
 * access tokens) before the handler runs. `public`: no credential.
 */
export type EndpointAuth = 'credential' | 'public';

export interface ResourceAccess {
  readonly tables?: Partial<Record<TableName, 'read' | 'readwrite'>>;
  readonly buckets?: Partial<Record<BucketName, 'read' | 'readwrite'>>;
  readonly queues?: Partial<Record<QueueName, 'send' | 'consume'>>;
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
  readonly access: ResourceAccess;
  readonly memoryMb?: number;
  readonly timeoutSeconds?: number;
}

/** What every credentialed handler touches: the rate-limit counters. */
const rateLimited: ResourceAccess = { tables: { rateLimits: 'readwrite' } };

export const endpoints: readonly EndpointDefinition[] = [
  {
    id: 'directions',
    api: 'base',
    paths: ['/directions/v2', '/directions'],
    methods: ['POST'],
    entry: 'functions/directions/handler.ts',
    auth: 'credential',
    access: { ...rateLimited, buckets: { graphs: 'read' } },
    memoryMb: 1769,
    timeoutSeconds: 29,
  },
  {
    id: 'multi-modal',
    api: 'base',
    paths: ['/multi-modal/v2', '/multi-modal'],
    methods: ['POST'],
    entry: 'functions/multimodal/handler.ts',
    auth: 'credential',
    access: { ...rateLimited, buckets: { graphs: 'read' } },
    memoryMb: 1769,
    timeoutSeconds: 29,
  },
];

/**
 * Path families with per-endpoint versions (spec 9). Any sub-path of these that is not a defined
 * version answers 404 `Unknown endpoint or API version`, as does every other unknown path.
 */
export const versionedFamilies: readonly string[] = ['/directions', '/multi-modal'];

/** Answers every path no endpoint defines, on both APIs. */
export const fallbackEntry = 'functions/http/fallback-handler.ts';

/** The REQUEST authorizer in front of every `credential` endpoint. */
export const authorizerEntry = 'functions/auth/authorizer-handler.ts';
export const authorizerAccess: ResourceAccess = { tables: { apiKeys: 'read' } };
