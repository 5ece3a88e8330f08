import middy, { type MiddlewareObj, type Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { admission } from '../auth/admission.ts';
import { fromAuthorizerContext, principalLogLabel, type Principal } from '../auth/principal.ts';
import { logger } from '../platform/logger.ts';
import { endpointDefinition, type EndpointDefinition, type HttpMethod } from '../platform/endpoints.ts';
import { consumeTokens, peekTokens, RateLimiterBusyError } from '../ratelimit/limiter.ts';
import type { RateDecision } from '../ratelimit/windows.ts';
import { badRequest, HttpError, internalError, methodNotAllowed, rateLimitExceeded } from './errors.ts';
import { header, isFormContentType, parseForm } from './forms.ts';
import { parseMultipartBody } from './multipart.ts';
import { validationError } from './validation.ts';

/**
 * The HTTP conventions every handler shares, composed from small middy middlewares: error
 * shaping (spec 7), 405 for other methods, JSON parsing, zod validation, rate limiting with its
 * headers (spec 8), CORS, a request id, and one log line per request. A handler built with
 * `endpoint()` only maps validated input to a result. Bodies are JSON, or form-encoded for the
 * OAuth token and revocation endpoints, which also answer in RFC 6749's error shape and are never
 * cached. HTML pages and form posts use `page()` (page.ts) on the same boundary.
 */

export interface EndpointRequest<Body, Query> {
  body: Body;
  query: Query;
  pathParameters: Record<string, string>;
  /** Request headers as received; look names up with `header()` (forms.ts), case-insensitively. */
  headers: Record<string, string | undefined>;
  principal: Principal | null;
  requestId: string;
}

export interface EndpointResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface EndpointOptions<B extends z.ZodType, Q extends z.ZodType> {
  /** The endpoint's id in functions/platform/endpoints.ts: methods and credentials come from there. */
  id: string;
  body?: B;
  query?: Q;
  /** Rate-limit tokens a valid request takes; one unless the endpoint says otherwise. */
  cost?: (input: { body: z.output<B>; query: z.output<Q> }) => number;
  /**
   * `form`: `application/x-www-form-urlencoded`, as OAuth token and revocation requests are.
   * `multipart`: `multipart/form-data` file uploads (multipart.ts); files longer than
   * `maxFileBytes` answer 413. A GET request never has its body parsed.
   */
  bodyFormat?: 'json' | 'form' | 'multipart';
  /** The longest file part a `multipart` body may carry. */
  maxFileBytes?: number;
  /**
   * OAuth endpoint conventions (RFC 6749 5.1, 5.2): a malformed request answers 400
   * `{error: "invalid_request", error_description}` and no response may be cached.
   */
  oauth?: boolean;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;

interface RequestState {
  startedAt: number;
  requestId: string;
  principal: Principal | null;
  headers: Record<string, string>;
  rateDecision?: RateDecision;
  body?: unknown;
  query?: unknown;
}

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;

/** Per-request state, keyed by the event: the local gateway runs many requests in one process. */
const states = new WeakMap<APIGatewayProxyEvent, RequestState>();

const state = (request: HttpRequest): RequestState => {
  const found = states.get(request.event);
  if (!found) throw new Error('HTTP state used before the boundary middleware ran');
  return found;
};

/** The request id the boundary assigned to this event. */
export function requestIdOf(event: APIGatewayProxyEvent): string {
  const found = states.get(event);
  if (!found) throw new Error('HTTP state used before the boundary middleware ran');
  return found.requestId;
}

const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

export interface BoundaryOptions {
  /** How an error reaches the caller; JSON in the spec's shape unless a page renders it. */
  renderError?: (error: HttpError) => APIGatewayProxyResult;
  /** `Access-Control-Allow-Origin: *`; off for HTML pages, which no other origin should read. */
  cors?: boolean;
}

/** Outermost: turns errors into the spec's body, adds CORS, request id and rate headers, logs. */
export function boundary(routeId: string, options: BoundaryOptions = {}): HttpMiddleware {
  const renderError = options.renderError ?? ((error: HttpError) => jsonResponse(error.status, error.body, error.headers));
  const cors = options.cors ?? true;
  const finish = (request: HttpRequest) => {
    const http = state(request);
    const response = request.response!;
    response.headers = {
      ...response.headers,
      ...http.headers,
      ...(cors ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS } : {}),
      'X-Request-Id': http.requestId,
    };
    logger.info('request', {
      route: routeId,
      method: request.event.httpMethod,
      status: response.statusCode,
      durationMs: Date.now() - http.startedAt,
      requestId: http.requestId,
      ...(http.principal ? { principal: principalLogLabel(http.principal) } : {}),
    });
  };
  return {
    before: (request: HttpRequest) => {
      states.set(request.event, {
        startedAt: Date.now(),
        requestId: request.event.requestContext?.requestId ?? request.context.awsRequestId,
        principal: fromAuthorizerContext(request.event.requestContext?.authorizer),
        headers: {},
      });
    },
    after: finish,
    onError: (request: HttpRequest) => {
      if (!states.has(request.event)) {
        states.set(request.event, { startedAt: Date.now(), requestId: request.context.awsRequestId, principal: null, headers: {} });
      }
      let error = request.error;
      if (error instanceof RateLimiterBusyError) {
        error = new HttpError(503, { error: 'Service busy; retry shortly' }, { 'Retry-After': '1' });
      }
      if (!(error instanceof HttpError)) {
        logger.error('unhandled error', { route: routeId, requestId: state(request).requestId, error: error as Error });
        error = internalError();
      }
      request.response = renderError(error as HttpError);
      finish(request);
    },
  };
}

export function allowMethods(methods: readonly HttpMethod[]): HttpMiddleware {
  return {
    before: (request) => {
      if (!methods.includes(request.event.httpMethod.toUpperCase() as HttpMethod)) throw methodNotAllowed(methods);
    },
  };
}

export function rawBody(event: APIGatewayProxyEvent): string | null {
  if (event.body === null || event.body === undefined) return null;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/** RFC 6749 5.2: a malformed OAuth request is `invalid_request`, described for the developer. */
const oauthInvalidRequest = (message: string, details?: string): HttpError =>
  new HttpError(400, { error: 'invalid_request', error_description: details ?? message });

function parseJsonBody(text: string | null): unknown {
  if (text === null || text.trim() === '') throw badRequest('Request body is required: a JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('Request body must be a JSON object');
  }
  return parsed;
}

function parseFormBody(event: APIGatewayProxyEvent, invalid: (message: string) => HttpError): Record<string, string> {
  if (!isFormContentType(header(event.headers, 'content-type'))) {
    throw invalid('The body must be application/x-www-form-urlencoded');
  }
  return parseForm(rawBody(event) ?? '', invalid);
}

function parseAndValidate<B extends z.ZodType, Q extends z.ZodType>(options: EndpointOptions<B, Q>): HttpMiddleware {
  const invalid = options.oauth ? (message: string) => oauthInvalidRequest(message) : (message: string) => badRequest(message);
  const invalidFields = (error: z.ZodError, where: 'body' | 'query') => {
    const shaped = validationError(error, where);
    return options.oauth ? oauthInvalidRequest(shaped.body.error, shaped.body.details) : shaped;
  };
  const parseBody = async (event: APIGatewayProxyEvent): Promise<unknown> => {
    if (options.bodyFormat === 'form') return parseFormBody(event, invalid);
    if (options.bodyFormat === 'multipart') {
      if (!options.maxFileBytes) throw new Error(`Endpoint ${options.id} takes multipart bodies without maxFileBytes`);
      return parseMultipartBody(event, options.maxFileBytes);
    }
    return parseJsonBody(rawBody(event));
  };
  return {
    before: async (request: HttpRequest) => {
      const http = state(request);
      if (options.body && request.event.httpMethod.toUpperCase() !== 'GET') {
        const parsed = await parseBody(request.event);
        const result = options.body.safeParse(parsed);
        if (!result.success) throw invalidFields(result.error, 'body');
        http.body = result.data;
      }
      if (options.query) {
        const result = options.query.safeParse(request.event.queryStringParameters ?? {});
        if (!result.success) throw invalidFields(result.error, 'query');
        http.query = result.data;
      }
    },
  };
}

/** RFC 6749 5.1: responses carrying tokens, and their errors, must not be cached. */
export function noStore(): HttpMiddleware {
  return {
    before: (request: HttpRequest) => {
      Object.assign(state(request).headers, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    },
  };
}

/**
 * The kinds of caller the endpoint admits (functions/auth/admission.ts). The authorizer already
 * refused everything that answers 401; what reaches here and is refused is the 403 only a
 * function can answer (an OAuth access token on `{app_base_url}`).
 */
function admitPrincipal(definition: EndpointDefinition): HttpMiddleware {
  return {
    before: (request: HttpRequest) => {
      const http = state(request);
      if (!http.principal) throw new Error('Credentialed endpoint reached without an authorizer principal');
      const verdict = admission(definition, http.principal);
      if (!verdict.admit) throw new HttpError(verdict.status, { error: verdict.error });
    },
  };
}

function rateHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.report.limit),
    'X-RateLimit-Remaining': String(decision.report.remaining),
    'X-RateLimit-Reset': String(decision.report.reset),
  };
}

/** Charges the caller's bucket; requests refused before this point are reported but not charged. */
function rateLimit(cost: (request: HttpRequest) => number): HttpMiddleware {
  return {
    before: async (request: HttpRequest) => {
      const http = state(request);
      if (!http.principal) throw new Error('Credentialed endpoint reached without an authorizer principal');
      const decision = await consumeTokens(http.principal.rateBucket, http.principal.limits, cost(request));
      http.rateDecision = decision;
      Object.assign(http.headers, rateHeaders(decision));
      if (!decision.allowed) {
        const refusal = rateLimitExceeded(decision.retryAfterSeconds ?? 1);
        if (decision.exceedsWindow) {
          refusal.body.details = `This request costs ${cost(request)} tokens, more than the ${decision.exceedsWindow.limit} per ${decision.exceedsWindow.kind} your plan allows`;
        }
        throw refusal;
      }
    },
    onError: async (request: HttpRequest) => {
      const http = states.get(request.event);
      // Only refusals the caller caused carry the headers; a fault is answered without them.
      if (!http?.principal || http.rateDecision || !(request.error instanceof HttpError)) return;
      try {
        Object.assign(http.headers, rateHeaders(await peekTokens(http.principal.rateBucket, http.principal.limits)));
      } catch (error) {
        logger.warn('rate-limit headers unavailable', { requestId: http.requestId, error: error as Error });
      }
    },
  };
}

export function endpoint<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  options: EndpointOptions<B, Q>,
  handle: (request: EndpointRequest<z.output<B>, z.output<Q>>) => Promise<EndpointResult>,
): ApiHandler {
  const definition = endpointDefinition(options.id);

  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>().use(boundary(definition.id));
  if (options.oauth) chain.use(noStore());
  chain.use(allowMethods(definition.methods));
  // A caller the endpoint does not admit learns nothing about its request rules.
  if (definition.auth !== 'public') chain.use(admitPrincipal(definition));
  chain.use(parseAndValidate(options));
  if (definition.auth !== 'public') {
    chain.use(
      rateLimit((request) => {
        const http = state(request);
        return options.cost ? options.cost({ body: http.body as z.output<B>, query: http.query as z.output<Q> }) : 1;
      }),
    );
  }
  return chain.handler(async (event) => {
    const http = states.get(event)!;
    const result = await handle({
      body: http.body as z.output<B>,
      query: http.query as z.output<Q>,
      pathParameters: (event.pathParameters ?? {}) as Record<string, string>,
      headers: event.headers ?? {},
      principal: http.principal,
      requestId: http.requestId,
    });
    return jsonResponse(result.status ?? 200, result.body, result.headers);
  }) as ApiHandler;
}
