import { z } from 'zod';
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { errorBody, fieldErrorsBody, oauthErrorBody } from '../http/error-schemas.ts';
import { MISSING_CREDENTIALS } from '../auth/credentials.ts';
import { UNKNOWN_ENDPOINT } from '../http/errors.ts';
import type { EndpointDefinition } from '../platform/endpoints.ts';

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
  tooLarge: errorResponse('PayloadTooLarge', 'A part of the body is larger than the endpoint accepts.', maybeRateLimitHeaders),
  rateLimited: errorResponse(
    'RateLimited',
    'Rate limit exceeded: `retry_after_seconds` and `Retry-After` say when to retry; `details` when the request costs more tokens than a window holds.',
    z.object({ ...maybeRateLimitHeaders.shape, 'Retry-After': retryAfter }),
  ),
  internal: errorResponse('InternalError', 'Something unexpected failed (`Internal server error`); nothing about it is disclosed.'),
  routingUnavailable: errorResponse('RoutingUnavailable', 'Routing is temporarily unavailable (`code: ROUTING_UNAVAILABLE`, with `search_id`): retry after a short delay. Distinct from a 200 whose route is null.', maybeRateLimitHeaders),
} as const;

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

export const redirect = (description: string, setsCookie = false): ZodOpenApiResponseObject => ({
  description,
  headers: z.object({
    Location: z.string().meta({ description: 'Where the browser goes next.' }),
    ...(setsCookie ? { 'Set-Cookie': z.string().meta({ description: 'Binds the sign-in request to this browser (HttpOnly, SameSite=Lax).' }) } : {}),
  }),
});

export const jsonResponse = (description: string, schema: z.ZodType, options: { rateLimited?: boolean; headers?: z.ZodObject } = {}): ZodOpenApiResponseObject => ({
  description,
  content: json(schema),
  ...(options.rateLimited || options.headers ? { headers: z.object({ ...(options.rateLimited ? rateLimitHeaders.shape : {}), ...options.headers?.shape }) } : {}),
});

/**
 * The refusals the HTTP chain and the gateway answer on every operation of an endpoint, by what
 * the endpoint's definition says: who may call it, and whether a rate limit applies.
 */
export function commonRefusals(definition: EndpointDefinition, dialect: 'api' | 'page'): ZodOpenApiResponsesObject {
  if (dialect === 'page') return { '405': pageResponses.methodNotAllowed, '500': pageResponses.internal };
  const refusals: ZodOpenApiResponsesObject = { '405': errorResponses.methodNotAllowed, '500': errorResponses.internal };
  if (definition.auth !== 'public') {
    refusals['401'] = errorResponses.unauthorized;
    refusals['429'] = errorResponses.rateLimited;
  }
  if (definition.auth === 'rider') refusals['403'] = errorResponses.forbiddenForApps;
  return refusals;
}

/** What the fallback answers for every path no operation describes. */
export const UNKNOWN_PATH_ANSWER = { status: 404, error: UNKNOWN_ENDPOINT } as const;
