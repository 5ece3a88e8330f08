import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
  type ZodOpenApiSecuritySchemeObject,
} from 'zod-openapi';
import { supportedScopes } from '../oauth/scopes.ts';
import { endpoints, type ApiName, type EndpointDefinition, type HttpMethod } from '../../platform/endpoints.ts';
import { examplesFor } from './examples.ts';
import { operations, type Operation, type openApiDocumentSchema } from './operations.ts';
import { commonRefusals, idempotencyKeyHeader, idempotencyRefusals, idempotentAnswerHeaders, UNKNOWN_PATH_ANSWER } from './responses.ts';

/**
 * The OpenAPI 3.1 document of one API, generated from the endpoint table and the zod schemas
 * the handlers validate with and answer in (operations.ts), never written by hand. Served at
 * `{base_url}/openapi.json` and `{app_base_url}/openapi.json` (handler.ts); linted with Redocly
 * and held against every answer of the platform tests (test/support/contract.ts).
 */

export interface DocumentEnvironment {
  /** `{base_url}` (the OAuth issuer) and `{app_base_url}`, as apps reach them. */
  baseUrl: string;
  appBaseUrl: string;
  /** The rider identity provider's OAuth endpoints (Amazon Cognito's hosted sign-in in AWS). */
  identityProvider: { authorizeUrl: string; tokenUrl: string };
}

/** Paths the spec writes without a trailing slash (the gateway accepts both everywhere). */
const WITHOUT_TRAILING_SLASH = /^\/(auth|\.well-known)\/|\.json$/;
export const documentedPath = (path: string): string => (WITHOUT_TRAILING_SLASH.test(path) ? path : `${path}/`);

/** Operation ids of the endpoints' second paths (aliases), which the spec names. */
export const aliasOperationIds: Readonly<Record<string, string>> = {
  '/directions': 'directionsUnversioned',
  '/multi-modal': 'multiModalUnversioned',
  '/.well-known/openid-configuration': 'openIdConfiguration',
};

const EXTENSIONS_NOTE =
  'Fields, headers and parameters the spec does not define are marked with the vendor extension `x-spoke-extension: true` ' +
  '(for example `metadata.safety_breakdown` of directions); clients that follow the spec alone may ignore them.';

const UNLISTED_PATHS_NOTE =
  `Every path that is not listed answers ${UNKNOWN_PATH_ANSWER.status} \`${UNKNOWN_PATH_ANSWER.error}\`, and one with a segment that is not valid percent-encoded UTF-8 answers 400 from the gateway; ` +
  'a listed path with another method answers 405 with `Allow`. The gateway also refuses by itself, on every path, a body over its payload limit (413) and headers too large (431), in the same error shape.';

const descriptions: Record<ApiName, { title: string; description: string }> = {
  base: {
    title: 'Spoke API: routing, reports, rider login',
    description: [
      'Cycling and walking directions, multi-modal options, the explanation of the safer route, road reports, and the OAuth 2.1 authorization server through which third-party apps act for riders.',
      '',
      'Credentials: an API key in the `apikey` header (also accepted in `Authorization`), a signed-in rider\'s identity-provider access token (`Authorization: Bearer`), or a third-party app\'s OAuth access token on the five endpoints that accept it. ' +
        'Every answer to a keyed request carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` for the tightest window; a 429 adds `Retry-After`.',
      '',
      'Errors are `{error, code?, details?}` (with `search_id` on routing errors and `retry_after_seconds` on 429s); the token and revocation endpoints answer RFC 6749 errors. ' +
        UNLISTED_PATHS_NOTE,
      '',
      EXTENSIONS_NOTE,
      '',
      'The rider, ride history, bike-share and events endpoints are on `{app_base_url}`, described by its own `/openapi.json`.',
    ].join('\n'),
  },
  app: {
    title: 'Spoke app API: riders, rides, bike share, events',
    description: [
      'The signed-in rider\'s profile, photo, ride history and statistics, user search, bike-share availability near a point, and cycling events near a point.',
      '',
      'Credentials: the identity provider\'s access token of a signed-in rider in `Authorization: Bearer` (third-party apps\' OAuth access tokens answer 403); events nearby is public. ' +
        'Answers to a rider\'s requests carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; a 429 adds `Retry-After`.',
      '',
      'Errors are `{error, code?, details?}`; a refused profile update maps each field to its messages. ' +
        UNLISTED_PATHS_NOTE,
      '',
      EXTENSIONS_NOTE,
      '',
      'Routing, reports and rider login for third-party apps are on `{base_url}`, described by its own `/openapi.json`.',
    ].join('\n'),
  },
};

const tagDescriptions: Record<string, string> = {
  Routing: 'Directions, multi-modal options and why the safer route (spec 4.1 to 4.3).',
  Reports: 'Road reports and their review (spec 4.4).',
  'Rider login': 'OAuth 2.1 with PKCE for third-party apps acting for a rider (spec 4.5, 5.5). The authorize endpoint and the consent screen are browser pages.',
  Riders: "The signed-in rider's profile and user search (spec 4.6).",
  Rides: 'Ride history and statistics (spec 4.6).',
  'Bike share': 'Stations and dockless bikes near a point (spec 4.7).',
  Events: 'Group rides and leisure routes near a point (spec 4.8).',
  Discovery: 'This document.',
};

function securitySchemes(api: ApiName, environment: DocumentEnvironment): Record<string, ZodOpenApiSecuritySchemeObject> {
  const scopes = Object.fromEntries(supportedScopes.map((scope) => [scope, `The id_token carries ${scope === 'openid' ? "the rider's id" : `the rider's ${scope === 'email' ? 'email address' : 'name'}`}; scopes never widen what the access token can do.`]));
  const riderSession: ZodOpenApiSecuritySchemeObject = {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "A signed-in rider's access token from the identity provider (Amazon Cognito in AWS).",
  };
  if (api === 'app') {
    return {
      riderSession,
      riderSignIn: {
        type: 'oauth2',
        description: "How the platform's own rider apps get that token: the identity provider's authorization code flow with PKCE (S256).",
        flows: {
          authorizationCode: {
            authorizationUrl: environment.identityProvider.authorizeUrl,
            tokenUrl: environment.identityProvider.tokenUrl,
            scopes: { openid: "The rider's id", email: "The rider's email address", profile: "The rider's name" },
          },
        },
      },
    };
  }
  return {
    apiKey: { type: 'apiKey', in: 'header', name: 'apikey', description: 'An API key, `spk_<key id>_<secret>` (plans: free, enterprise, partner).' },
    apiKeyInAuthorization: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'The same API key as `Authorization: <key>`, `Authorization: Api-Key <key>` or `Authorization: Bearer <key>`.',
    },
    riderSession: { ...riderSession, description: `${riderSession.description} Higher rate limits than the free plan; reports are the rider's own.` },
    thirdPartyApp: {
      type: 'oauth2',
      description:
        "A third-party app's access token for a rider: OAuth 2.1 authorization code with PKCE (S256 only), accepted on directions, multi-modal, explain-supersafe and reports (spec 5.5). " +
        'Refresh tokens rotate. Metadata: `/.well-known/oauth-authorization-server`.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${environment.baseUrl}/auth/v1/oauth/authorize`,
          tokenUrl: `${environment.baseUrl}/auth/v1/oauth/token`,
          refreshUrl: `${environment.baseUrl}/auth/v1/oauth/token`,
          scopes,
        },
      },
    },
  };
}

/** Who may call an endpoint, as OpenAPI security requirements. */
function securityOf(definition: EndpointDefinition): Record<string, string[]>[] {
  switch (definition.auth) {
    case 'public':
      return [];
    case 'rider':
      return [{ riderSession: [] }, { riderSignIn: [] }];
    case 'credential':
      return [{ apiKey: [] }, { apiKeyInAuthorization: [] }, { riderSession: [] }, ...(definition.oauthAccess ? [{ thirdPartyApp: [] }] : [])];
  }
}

/** A success answer that may be a replay under an `Idempotency-Key`: its headers with `Idempotent-Replayed`. */
function mayBeReplayed(response: ZodOpenApiResponseObject): ZodOpenApiResponseObject {
  const headers = response.headers;
  if (headers !== undefined && !(headers instanceof z.ZodObject)) throw new Error('A success answer of an idempotent operation with headers that are not a zod object');
  return { ...response, headers: z.object({ ...headers?.shape, ...idempotentAnswerHeaders.shape }) };
}

/**
 * An operation of an `idempotent` endpoint that carries a body: the `Idempotency-Key` header, the
 * replay mark on its success answers, and the key's refusals (README, "Retrying safely").
 */
function takingIdempotencyKey(operation: Operation): Operation {
  const responses: ZodOpenApiResponsesObject = { ...operation.responses, ...idempotencyRefusals };
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (/^2\d\d$/.test(status) && !('$ref' in response)) responses[status as keyof ZodOpenApiResponsesObject] = mayBeReplayed(response);
  }
  const header = operation.requestParams?.header;
  if (header) throw new Error(`${operation.operationId} has header parameters of its own: merge them with Idempotency-Key`);
  return { ...operation, requestParams: { ...operation.requestParams, header: idempotencyKeyHeader }, responses };
}

function operationAt(definition: EndpointDefinition, dialect: 'api' | 'page', described: Operation, method: HttpMethod, path: string, index: number): ZodOpenApiOperationObject {
  const operation = definition.idempotent && method !== 'GET' ? takingIdempotencyKey(described) : described;
  const alias = index > 0;
  const operationId = alias ? aliasOperationIds[path] : operation.operationId;
  if (!operationId) throw new Error(`No operation id for ${path}, an alias of ${definition.id}: add it to aliasOperationIds`);
  const examples = examplesFor(operation.operationId);
  const withExamples = <T extends { content?: Record<string, object | undefined> } | undefined>(part: T, example: unknown): T => {
    if (!part?.content || example === undefined) return part;
    const [mediaType, media] = Object.entries(part.content)[0]!;
    // A copy with an example is its own response, not the shared component.
    const { id: _, ...own } = part as T & { id?: string };
    return { ...own, content: { ...part.content, [mediaType]: { ...media, examples: { recorded: { summary: 'Recorded from the local platform', value: example } } } } } as T;
  };
  const responses = { ...commonRefusals(definition, path, dialect), ...operation.responses };
  for (const [status, example] of Object.entries(examples.responses)) {
    const response = responses[status as keyof typeof responses];
    if (response && !('$ref' in response)) responses[status as keyof typeof responses] = withExamples(response, example);
  }
  return {
    ...operation,
    operationId,
    ...(alias ? { description: `Alias of ${documentedPath(definition.paths[0]!)} (${operation.description ?? operation.summary}).` } : {}),
    security: operation.security ?? securityOf(definition),
    ...(operation.requestBody ? { requestBody: withExamples(operation.requestBody, examples.request) } : {}),
    responses,
  };
}

type SchemaOverride = { jsonSchema: Record<string, unknown>; zodSchema: z.core.$ZodType; io: 'input' | 'output' };

/** Adjusts zod's rendering of a schema where the document would otherwise mislead or trip common tools. */
function documentSchema(rendering: SchemaOverride): void {
  documentPipesFromUnknown(rendering);
  documentTuplesWithoutFalseItems(rendering);
}

/**
 * Zod renders a pipe from `z.unknown()` (a field checked for presence before its real schema, as
 * a report's `location`) by its unknown end; the document shows the schema it pipes into.
 */
function documentPipesFromUnknown({ jsonSchema, zodSchema, io }: SchemaOverride): void {
  const def = zodSchema._zod.def as z.core.$ZodTypeDef & { in?: z.core.$ZodType; out?: z.core.$ZodType };
  if (def.type !== 'pipe' || io !== 'input' || def.in?._zod.def.type !== 'unknown' || !def.out) return;
  const { $schema: _, ...rendered } = z.toJSONSchema(def.out, { io: 'input', target: 'draft-2020-12', metadata: z.registry(), override: documentTuplesWithoutFalseItems });
  Object.assign(jsonSchema, rendered);
}

/**
 * Zod closes a tuple with `items: false`, a boolean schema that Stoplight Prism's validator
 * rejects (and with it every coordinate and every object holding one). The tuple's `minItems` and
 * `maxItems`, which zod renders too, already say that nothing follows its `prefixItems`.
 */
function documentTuplesWithoutFalseItems({ jsonSchema, zodSchema }: Omit<SchemaOverride, 'io'>): void {
  const def = zodSchema._zod.def as z.core.$ZodTypeDef & { items?: readonly unknown[]; rest?: unknown };
  if (def.type !== 'tuple' || def.rest || jsonSchema.items !== false) return;
  delete jsonSchema.items;
  jsonSchema.minItems ??= def.items?.length;
  jsonSchema.maxItems ??= def.items?.length;
}

export type OpenApiDocument = z.input<typeof openApiDocumentSchema>;

export function openApiDocument(api: ApiName, environment: DocumentEnvironment): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  const tags = new Set<string>();
  for (const definition of endpoints.filter((candidate) => candidate.api === api)) {
    const described = operations[definition.id];
    if (!described) throw new Error(`Endpoint ${definition.id} has no operations in functions/openapi/operations.ts`);
    definition.paths.forEach((path, index) => {
      const item: Record<string, ZodOpenApiOperationObject> = {};
      for (const method of definition.methods) {
        const operation = described[method.toLowerCase() as Lowercase<typeof method>];
        if (!operation) throw new Error(`Endpoint ${definition.id} has no ${method} operation in functions/openapi/operations.ts`);
        item[method.toLowerCase()] = operationAt(definition, described.browserPage ? 'page' : 'api', operation, method, path, index);
        for (const tag of operation.tags ?? []) tags.add(tag);
      }
      paths[documentedPath(path)] = item;
    });
  }
  const { title, description } = descriptions[api];
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: { title, version: '', description },
      servers: [{ url: api === 'base' ? environment.baseUrl : environment.appBaseUrl, description: api === 'base' ? '{base_url}' : '{app_base_url}' }],
      tags: [...tags].map((name) => ({ name, description: tagDescriptions[name] ?? name })),
      paths,
      components: { securitySchemes: securitySchemes(api, environment) },
    },
    { override: documentSchema },
  );
  // The version names this very description of the operations and their schemas: it changes
  // whenever one of them does, and never with the deployment's addresses.
  document.info.version = createHash('sha256').update(JSON.stringify([document.paths, document.components?.schemas])).digest('hex').slice(0, 12);
  return document as OpenApiDocument;
}
