import { z } from 'zod';
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { errorBody, fieldErrorsBody, oauthErrorBody } from '../http/error-schemas.ts';
import { MISSING_CREDENTIALS } from '../../platform/credential-refusals.ts';
import { NO_ROUTE_TO_EXPORT, ROUTE_BUDGET_EXCEEDED, UNKNOWN_ENDPOINT } from '../http/errors.ts';
import { ROUTE_BUDGET } from '../../core/routing/planning/budget.ts';
import { LOCAL_MAX_REQUEST_HEADER_BYTES, MAX_REQUEST_BODY_BYTES } from '../http/gateway-limits.ts';
import { IDEMPOTENCY_WINDOW_SECONDS, REPLAYED_HEADER } from '../http/idempotent-answers.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_VALUE, MAX_IDEMPOTENCY_KEY_LENGTH } from '../http/middleware/idempotency-key.ts';
import { beyondTheSpec } from '../http/schema-meta.ts';
import type { EndpointDefinition } from '../../platform/endpoints.ts';
import type { DomainError } from '../../platform/errors.ts';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from '../../platform/idempotency.ts';

/**
 * The answers every operation shares: error responses in the spec's shape (spec 7), RFC 6749's
 * on the token and revocation endpoints, error pages on the browser pages, and the rate-limit
 * headers (spec 8). Each is registered once as a component of the documents.
 */

const integerHeader = (name: string, description: string) =>
  z
    .string()
    .regex(/^\d+$/)
    .meta({ description, header: { id: name } });

const rateLimitLimit = integerHeader('X-RateLimit-Limit', 'Requests the tightest window of the caller allows (spec 8).');
const rateLimitRemaining = integerHeader('X-RateLimit-Remaining', 'Requests left in that window.');
const rateLimitReset = integerHeader('X-RateLimit-Reset', 'When that window ends, Unix seconds.');
const retryAfter = integerHeader('Retry-After', 'Seconds until the request can succeed.');

/** On every answer to a request the authorizer admitted (refusals before the rate limit included, where the caller is known). */
export const rateLimitHeaders = z.object({
  'X-RateLimit-Limit': rateLimitLimit,
  'X-RateLimit-Remaining': rateLimitRemaining,
  'X-RateLimit-Reset': rateLimitReset,
});
const maybeRateLimitHeaders = z.object({
  'X-RateLimit-Limit': rateLimitLimit.optional(),
  'X-RateLimit-Remaining': rateLimitRemaining.optional(),
  'X-RateLimit-Reset': rateLimitReset.optional(),
});

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const html = { 'text/html': { schema: z.string().meta({ description: 'An HTML page.' }) } };

const errorResponse = (id: string, description: string, headers?: z.ZodObject): ZodOpenApiResponseObject => ({
  id,
  description,
  content: json(errorBody),
  ...(headers ? { headers } : {}),
});

/** One registered response per sentence: zod-openapi registers a component once per object. */
const notFoundResponses = new Map<string, ZodOpenApiResponseObject>();
const notFound = (what: string): ZodOpenApiResponseObject => {
  let response = notFoundResponses.get(what);
  if (!response) {
    response = errorResponse(`NotFound${what.replace(/\W/g, '')}`, `${what}.`, maybeRateLimitHeaders);
    notFoundResponses.set(what, response);
  }
  return response;
};

const allow = z.object({ Allow: z.string().meta({ description: 'The methods the path serves.' }) });

const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;

/**
 * What the gateway answers by itself, before any function, on every operation: a body over its
 * payload limit, a request line and headers over its limit, and a path parameter that does not
 * percent-decode (functions/http/gateway-limits.ts; lib/gateway-responses.ts, lib/local/gateway.ts).
 */
export const gatewayRefusals = {
  malformedPath: errorResponse('MalformedPath', 'A path segment is not valid percent-encoded UTF-8 (`%ZZ`, `%E0%A4%A`): the gateway refuses the request before any credential check.'),
  bodyTooLong: errorResponse('RequestTooLong', `The body is over ${megabytes(MAX_REQUEST_BODY_BYTES)}, the gateway's payload limit (\`Request too long\`).`),
  headersTooLarge: errorResponse(
    'RequestHeaderFieldsTooLarge',
    `The request line and headers are too large: beyond ${LOCAL_MAX_REQUEST_HEADER_BYTES / 1024} KB on the local platform; API Gateway's own limit is about 10 KB, where it refuses the request itself.`,
  ),
} as const;

export const errorResponses = {
  badRequest: errorResponse('BadRequest', 'The body or a parameter breaks a rule: `error` names the field and the problem, `details` lists every problem when there are several.', maybeRateLimitHeaders),
  crossCityOrBadRequest: errorResponse(
    'RoutingBadRequest',
    'The body or a parameter breaks a rule, or the coordinates span cities or lie outside every covered city (`code: CROSS_CITY_ROUTE` with `search_id`).',
    maybeRateLimitHeaders,
  ),
  unauthorized: errorResponse('Unauthorized', `No credentials (\`${MISSING_CREDENTIALS}\`), or a key or token that is unknown, malformed, revoked, expired or not accepted here.`),
  forbiddenForApps: errorResponse('ForbiddenForApps', "A third-party app's OAuth access token: not accepted by this API (spec 5.5).", maybeRateLimitHeaders),
  notFound,
  methodNotAllowed: errorResponse('MethodNotAllowed', 'The path does not serve this method (`Method not allowed`); `Allow` names the ones it does.', allow),
  tooLarge: errorResponse('PayloadTooLarge', `A part of the body is larger than the endpoint accepts, or the whole body is over ${megabytes(MAX_REQUEST_BODY_BYTES)} (the gateway's limit).`, maybeRateLimitHeaders),
  rateLimited: errorResponse(
    'RateLimited',
    'Rate limit exceeded: `retry_after_seconds` and `Retry-After` say when to retry; `details` when the request costs more tokens than a window holds.',
    z.object({ ...maybeRateLimitHeaders.shape, 'Retry-After': retryAfter }),
  ),
  internal: errorResponse('InternalError', 'Something unexpected failed (`Internal server error`); nothing about it is disclosed.'),
  routingUnavailable: errorResponse('RoutingUnavailable', 'Routing is temporarily unavailable (`code: ROUTING_UNAVAILABLE`, with `search_id`): retry after a short delay. Distinct from a 200 whose route is null.', maybeRateLimitHeaders),
} as const;

/**
 * Beyond the spec: a route request refused by its compute budget (core/routing/planning/budget.ts;
 * README, "Limits"), on every endpoint that plans routes. The figures are the budget's own.
 */
const routeBudgetBody = z.object({
  error: errorBody.shape.error,
  code: z.literal(ROUTE_BUDGET_EXCEEDED).meta({ description: 'The stable code of this refusal.' }),
  details: z.string().meta({ description: 'Which limit refused the request, with its figures.' }),
});

export const routeBudgetExceeded: ZodOpenApiResponseObject = {
  id: 'RouteBudgetExceeded',
  description:
    `The request needs more routing work than one request may do (\`code: ${ROUTE_BUDGET_EXCEEDED}\`): split the trip into several requests. ` +
    `Its legs may cover ${ROUTE_BUDGET.routeMetres.cycling / 1000} km in a straight line cycling and ${ROUTE_BUDGET.routeMetres.walking / 1000} km walking ` +
    `(refused before any rate-limit token is spent), and all of its route searches may settle ${ROUTE_BUDGET.statesSettled.toLocaleString('en')} states together ` +
    '(refused when they reach it; the tokens are spent). `details` names the limit and the figures.',
  content: json(routeBudgetBody),
  headers: maybeRateLimitHeaders,
  ...beyondTheSpec,
};

/**
 * Beyond the spec: directions' 422s, the compute budget's and, for a request that asked for the
 * route as a GPX file, a route of null (functions/directions/gpx-answer.ts): no file to write.
 */
export const directionsUnprocessable: ZodOpenApiResponseObject = {
  id: 'DirectionsUnprocessable',
  description:
    `${routeBudgetExceeded.description} ` +
    `Or the request asked for GPX (\`format: "gpx"\` or \`Accept: application/gpx+xml\`) and no route joins the waypoints (\`code: ${NO_ROUTE_TO_EXPORT}\`, with \`search_id\`): ` +
    'the JSON answer would be a 200 with `route: null`, and there is no route to write.',
  content: json(
    z.union([
      routeBudgetBody,
      z.object({
        error: errorBody.shape.error,
        code: z.literal(NO_ROUTE_TO_EXPORT).meta({ description: 'The stable code of this refusal.' }),
        search_id: z.uuid(),
      }),
    ]),
  ),
  headers: maybeRateLimitHeaders,
  ...beyondTheSpec,
};

export const fieldErrors: ZodOpenApiResponseObject = {
  id: 'FieldErrors',
  description: 'Invalid JSON (`{error}`), or fields that break their rules: each field maps to its messages (spec 7).',
  content: json(z.union([fieldErrorsBody, errorBody])),
  headers: maybeRateLimitHeaders,
};

export const oauthErrors = {
  badRequest: {
    id: 'OAuthBadRequest',
    description: 'RFC 6749 5.2: `invalid_request`, `invalid_grant`, `unauthorized_client`, `unsupported_grant_type`, `invalid_scope` (README, "Errors").',
    content: json(oauthErrorBody),
    headers: z.object({ 'Cache-Control': z.literal('no-store') }),
  },
  invalidClient: {
    id: 'OAuthInvalidClient',
    description: '`invalid_client`: unknown or revoked app, wrong secret, a confidential app without HTTP Basic, a public app with a secret.',
    content: json(oauthErrorBody),
    headers: z.object({ 'WWW-Authenticate': z.string().meta({ description: '`Basic realm="spoke-oauth", charset="UTF-8"`' }) }),
  },
} satisfies Record<string, ZodOpenApiResponseObject>;

const page = (id: string, description: string): ZodOpenApiResponseObject => ({ id, description, content: html });

export const pageResponses = {
  refused: page('PageRefused', 'The request cannot be accepted: an error page for the rider, whose text names the problem. Never a redirect.'),
  forbidden: page('PageForbidden', 'An error page: the sign-in request was started in another browser, or the form is out of date.'),
  notFound: page('PageNotFound', 'An error page: the sign-in request does not exist.'),
  methodNotAllowed: page('PageMethodNotAllowed', 'An error page: the page cannot be used with this method.'),
  conflict: page('PageConflict', 'An error page: the sign-in request is already finished.'),
  expired: page('PageExpired', 'An error page: the sign-in request expired (3 minutes).'),
  limited: page('PageLimited', 'An error page: too many sign-in codes or attempts.'),
  internal: page('PageInternalError', 'An error page: something unexpected failed.'),
} as const;

export const htmlPage = (description: string): ZodOpenApiResponseObject => ({ description, content: html });

const BROWSER_BINDING = { description: 'Binds the sign-in request to this browser (HttpOnly, SameSite=Lax).' };

/** `cookie`: whether the redirects described set the cookie that binds a sign-in request to the browser (`sometimes`: only some of them do). */
export const redirect = (description: string, cookie: 'never' | 'always' | 'sometimes' = 'never'): ZodOpenApiResponseObject => ({
  description,
  headers: z.object({
    Location: z.string().meta({ description: 'Where the browser goes next.' }),
    ...(cookie === 'never' ? {} : { 'Set-Cookie': cookie === 'always' ? z.string().meta(BROWSER_BINDING) : z.string().optional().meta(BROWSER_BINDING) }),
  }),
});

export const jsonResponse = (description: string, schema: z.ZodType, options: { rateLimited?: boolean; headers?: z.ZodObject } = {}): ZodOpenApiResponseObject => ({
  description,
  content: json(schema),
  ...(options.rateLimited || options.headers ? { headers: z.object({ ...(options.rateLimited ? rateLimitHeaders.shape : {}), ...options.headers?.shape }) } : {}),
});

/**
 * The refusals the HTTP chain and the gateway answer on every operation of an endpoint, by what
 * the endpoint's definition says: who may call it, whether a rate limit applies, and whether its
 * path has a parameter (the one place a path that does not decode can still name the endpoint).
 * The gateway's answers are JSON on browser pages too.
 */
export function commonRefusals(definition: EndpointDefinition, path: string, dialect: 'api' | 'page'): ZodOpenApiResponsesObject {
  const gateway: ZodOpenApiResponsesObject = {
    ...(path.includes('{') ? { '400': gatewayRefusals.malformedPath } : {}),
    '413': gatewayRefusals.bodyTooLong,
    '431': gatewayRefusals.headersTooLarge,
  };
  if (dialect === 'page') return { ...gateway, '405': pageResponses.methodNotAllowed, '500': pageResponses.internal };
  const refusals: ZodOpenApiResponsesObject = { ...gateway, '405': errorResponses.methodNotAllowed, '500': errorResponses.internal };
  if (definition.auth !== 'public') {
    refusals['401'] = errorResponses.unauthorized;
    refusals['429'] = errorResponses.rateLimited;
  }
  if (definition.auth === 'rider') refusals['403'] = errorResponses.forbiddenForApps;
  return refusals;
}

/**
 * What an `idempotent` endpoint adds to the operations that carry a body (README, "Retrying
 * safely"; functions/http/idempotent-answers.ts), all beyond the spec: the `Idempotency-Key`
 * request header, `Idempotent-Replayed` on a replayed answer, and the two refusals of a key.
 */
const windowHours = IDEMPOTENCY_WINDOW_SECONDS / 3600;

export const idempotencyKeyHeader = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .regex(IDEMPOTENCY_KEY_VALUE)
    .optional()
    .meta({
      description:
        `Makes a retry safe (IETF httpapi idempotency-key draft): a fresh key per request, a UUID for instance, and the same key on every retry of it. ` +
        `The same key and body within ${windowHours} hours answer the first answer again; another body 422, a repeat while the first runs 409. ` +
        `1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters of \`A-Z a-z 0-9 - _ . : ~ + / =\`, bare or as a structured-field string in double quotes; a key belongs to its caller.`,
      example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
      param: { ...beyondTheSpec },
    }),
});

const replayed = z
  .literal('true')
  .optional()
  .meta({
    description: `The answer is the one first given to a request with the same \`${IDEMPOTENCY_KEY_HEADER}\` and body: nothing was created again.`,
    header: { id: REPLAYED_HEADER, ...beyondTheSpec },
  });
export const idempotentAnswerHeaders = z.object({ [REPLAYED_HEADER]: replayed });

const keyRefusal = (id: string, refusal: DomainError, description: string): ZodOpenApiResponseObject => ({
  id,
  description: `${description} \`code: ${refusal.code}\`.`,
  content: json(
    z
      .object({ error: errorBody.shape.error, code: z.literal(refusal.code!).meta({ description: 'The stable code of this refusal.' }) })
      .meta({ example: { error: refusal.message, code: refusal.code } }),
  ),
  headers: maybeRateLimitHeaders,
  ...beyondTheSpec,
});

export const idempotencyRefusals = {
  '409': keyRefusal('IdempotencyKeyInUse', new IdempotencyKeyInUseError(), `The first request under this \`${IDEMPOTENCY_KEY_HEADER}\` is still running: retry after a moment.`),
  '422': keyRefusal('IdempotencyKeyReused', new IdempotencyKeyReusedError(), `This \`${IDEMPOTENCY_KEY_HEADER}\` was sent before with another body: send a new key for a new request.`),
} satisfies ZodOpenApiResponsesObject;

/** What the fallback answers for every path no operation describes. */
export const UNKNOWN_PATH_ANSWER = { status: 404, error: UNKNOWN_ENDPOINT } as const;
