import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import { endpointDefinition, type HttpMethod } from '../../platform/endpoints.ts';
import type { RepeatableRequest } from '../../platform/idempotency.ts';
import type { RateScope } from '../ratelimit/limiter.ts';
import { requestBaseUrl } from './base-url.ts';
import { boundary } from './boundary.ts';
import { answerOnce } from './idempotent-answers.ts';
import { admitCaller } from './middleware/admission.ts';
import { allowMethods } from './middleware/allow-methods.ts';
import { callerRules } from './middleware/caller-rules.ts';
import { formBody } from './middleware/form-body.ts';
import { handlerState, httpStateOf, type HttpContext, type HttpMiddleware } from './middleware/http-state.ts';
import { idempotencyKey } from './middleware/idempotency-key.ts';
import { jsonBody } from './middleware/json-body.ts';
import { multipartBody } from './middleware/multipart-body.ts';
import { noStore } from './middleware/no-store.ts';
import { queryParameters } from './middleware/query.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { validate } from './middleware/validate.ts';
import { documentResponse, jsonResponse } from './responses.ts';

/**
 * A JSON endpoint: the HTTP conventions every handler shares, composed from the small middy
 * middlewares in ./middleware/ (boundary.ts, then 405, admission, body and query parsing, zod
 * validation and rate limiting). A handler built with `endpoint()` only maps validated input to
 * a result, and throws domain errors that the boundary maps to answers (errors.ts). Bodies are
 * JSON, form-encoded for the OAuth token and revocation endpoints (which also answer in RFC
 * 6749's error shape and are never cached), or multipart for file uploads; a GET's body is never
 * parsed. An endpoint that creates something can take an `Idempotency-Key` (its definition says
 * `idempotent`): a repeat of a request then gets the first answer (idempotent-answers.ts). HTML pages use `page()`
 * (page.ts).
 */

export interface EndpointRequest<Body, Query> {
  body: Body;
  query: Query;
  pathParameters: Record<string, string>;
  /** Request headers as received; look names up with `header()` (forms.ts), case-insensitively. */
  headers: Record<string, string | undefined>;
  principal: Principal | null;
  /** API Gateway's request id; every log line of the request carries it already. */
  requestId: string;
  /**
   * The request's `Idempotency-Key`, its caller and body fingerprint, on an `idempotent` endpoint
   * that was sent one; domain code derives what it writes from it (`repeatableId`). Null otherwise.
   */
  repeatable: RepeatableRequest | null;
  /** The API's base URL as the caller reached it (base-url.ts). */
  baseUrl: string;
}

export interface EndpointResult<Body = unknown> {
  status?: number;
  body: Body;
  headers?: Record<string, string>;
}

/**
 * An answer in another format than JSON, where the caller asked for one (directions as GPX):
 * the document's text and its media type, sent as they are.
 */
export interface DocumentResult {
  status?: number;
  document: { text: string; contentType: string };
  headers?: Record<string, string>;
}

export interface EndpointOptions<B extends z.ZodType, Q extends z.ZodType, R extends z.ZodType = z.ZodUnknown> {
  /** The endpoint's id in platform/endpoints.ts: methods and credentials come from there. */
  id: string;
  body?: B;
  query?: Q;
  /**
   * What a successful answer's body is (a union where methods answer differently): the handler's
   * result must have its shape, so the OpenAPI documents generated from the same schema
   * (functions/openapi/) cannot drift from what the handler answers. Not checked at run time;
   * the platform tests check every answer against the documents.
   */
  response?: R;
  /** Rate-limit tokens a valid request takes; one unless the endpoint says otherwise. */
  cost?: (input: { body: z.output<B>; query: z.output<Q> }) => number;
  /**
   * `form`: `application/x-www-form-urlencoded`, as OAuth token and revocation requests are.
   * `multipart`: `multipart/form-data` file uploads (multipart.ts); files longer than
   * `maxFileBytes` answer 413.
   */
  bodyFormat?: 'json' | 'form' | 'multipart';
  /** The longest file part a `multipart` body may carry; required with it. */
  maxFileBytes?: number;
  /**
   * A stricter limit of the endpoint's own, paid beside the caller's general one in the same
   * update (multi-modal's share; a rider session's reports). Null: the general limit only.
   */
  rateScope?: (input: { principal: Principal; headers: Record<string, string | undefined> }) => RateScope | null;
  /**
   * OAuth endpoint conventions (RFC 6749 5.1, 5.2): a malformed request answers 400
   * `{error: "invalid_request", error_description}` and no response may be cached.
   */
  oauth?: boolean;
  /**
   * Rules of the body that depend on who calls (a partner key must name its source): the problem
   * as a field message, or null. Checked after admission and before any token is spent, so a
   * request they refuse is not charged.
   */
  callerRules?: (input: { body: z.output<B>; principal: Principal }) => string | null;
  /**
   * The request's compute budget, where the body says enough to judge it (a route request's
   * straight-line length, core/routing/planning/budget.ts): throws the refusal. Checked after
   * validation and the caller's rules and before any token is spent, so a request it refuses is
   * not charged.
   */
  checkBudget?: (input: { body: z.output<B> }) => void;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The building blocks, for a handler that composes its own chain (as page.ts does). */
export { boundary, type BoundaryOptions } from './boundary.ts';
export { rawBody } from './forms.ts';
export { allowMethods } from './middleware/allow-methods.ts';
export type { HttpMiddleware } from './middleware/http-state.ts';
export { noStore } from './middleware/no-store.ts';
export { jsonResponse };

export function endpoint<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined, R extends z.ZodType = z.ZodUnknown>(
  options: EndpointOptions<B, Q, R>,
  handle: (request: EndpointRequest<z.output<B>, z.output<Q>>) => Promise<EndpointResult<z.input<R>> | DocumentResult>,
): ApiHandler {
  const definition = endpointDefinition(options.id);
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>().use(
    boundary(definition.id, { dialect: options.oauth ? 'oauth' : 'api' }),
  );
  if (options.oauth) chain.use(noStore());
  chain.use(allowMethods(definition.methods));
  // A caller the endpoint does not admit learns nothing about its request rules: its 403 comes before any 400.
  if (definition.auth !== 'public') chain.use(admitCaller(definition));
  const bodyMethods = definition.methods.filter((method) => method !== 'GET');
  if (options.body) chain.use(bodyParser(options, bodyMethods));
  if (options.query) chain.use(queryParameters());
  chain.use(validate({ body: options.body, query: options.query }));
  if (definition.idempotent && definition.auth === 'public') throw new Error(`Endpoint ${options.id} takes Idempotency-Key without a caller to scope it to`);
  const rules = options.callerRules;
  if (rules && definition.auth !== 'public') chain.use(callerRules((http) => rules({ body: http.body as z.output<B>, principal: http.principal! })));
  const checkBudget = options.checkBudget;
  if (checkBudget) chain.use({ before: (request) => checkBudget({ body: httpStateOf(request).body as z.output<B> }) });
  if (definition.auth !== 'public') {
    if (definition.idempotent) chain.use(idempotencyKey({ methods: bodyMethods }));
    const scope = options.rateScope;
    chain.use(
      rateLimit(
        (http) => (options.cost ? options.cost({ body: http.body as z.output<B>, query: http.query as z.output<Q> }) : 1),
        scope ? (http, event) => scope({ principal: http.principal!, headers: event.headers ?? {} }) : undefined,
      ),
    );
  }
  return chain.handler(async (event, context) => {
    const http = handlerState(context);
    const answer = async () => {
      const result = await handle({
        body: http.body as z.output<B>,
        query: http.query as z.output<Q>,
        pathParameters: (event.pathParameters ?? {}) as Record<string, string>,
        headers: event.headers ?? {},
        principal: http.principal,
        requestId: http.requestId,
        repeatable: http.repeatable ?? null,
        baseUrl: requestBaseUrl(event),
      });
      if ('document' in result) return documentResponse(result.status ?? 200, result.document, result.headers);
      return jsonResponse(result.status ?? 200, result.body, result.headers);
    };
    return http.repeatable ? answerOnce(definition.id, http.repeatable, context, answer) : answer();
  }) as ApiHandler;
}

/** The middleware that parses the endpoint's body format, on the methods that carry a body (never a GET). */
function bodyParser(options: Pick<EndpointOptions<z.ZodType, z.ZodType, z.ZodType>, 'id' | 'bodyFormat' | 'maxFileBytes'>, methods: readonly HttpMethod[]): HttpMiddleware {
  switch (options.bodyFormat ?? 'json') {
    case 'json':
      return jsonBody({ methods });
    case 'form':
      return formBody({ methods });
    case 'multipart':
      if (!options.maxFileBytes) throw new Error(`Endpoint ${options.id} takes multipart bodies without maxFileBytes`);
      return multipartBody({ maxFileBytes: options.maxFileBytes, methods });
  }
}
