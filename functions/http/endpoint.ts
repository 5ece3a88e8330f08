import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { RateScope } from '../ratelimit/limiter.ts';
import { endpointDefinition } from '../platform/endpoints.ts';
import { boundary } from './boundary.ts';
import { admitCaller } from './middleware/admission.ts';
import { allowMethods } from './middleware/allow-methods.ts';
import { formBody } from './middleware/form-body.ts';
import { handlerState, type HttpContext } from './middleware/http-state.ts';
import { jsonBody } from './middleware/json-body.ts';
import { noStore } from './middleware/no-store.ts';
import { queryParameters } from './middleware/query.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { validate } from './middleware/validate.ts';
import { jsonResponse } from './responses.ts';

/**
 * A JSON endpoint: the HTTP conventions every handler shares, composed from the small middy
 * middlewares in ./middleware/ (boundary.ts, then 405, body and query parsing, zod validation,
 * admission and rate limiting). A handler built with `endpoint()` only maps validated input to a
 * result, and throws domain errors that the boundary maps to answers (errors.ts). Bodies are
 * JSON, or form-encoded for the OAuth token and revocation endpoints, which also answer in
 * RFC 6749's error shape and are never cached. HTML pages use `page()` (page.ts).
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
  /** A stricter limit of the endpoint's own, paid beside the caller's general one (multi-modal). */
  rateScope?: (principal: Principal) => RateScope;
  /** `form`: `application/x-www-form-urlencoded`, as OAuth token and revocation requests are. */
  bodyFormat?: 'json' | 'form';
  /**
   * OAuth endpoint conventions (RFC 6749 5.1, 5.2): a malformed request answers 400
   * `{error: "invalid_request", error_description}` and no response may be cached.
   */
  oauth?: boolean;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The building blocks, for a handler that composes its own chain (as page.ts does). */
export { boundary, type BoundaryOptions } from './boundary.ts';
export { rawBody } from './forms.ts';
export { allowMethods } from './middleware/allow-methods.ts';
export type { HttpMiddleware } from './middleware/http-state.ts';
export { noStore } from './middleware/no-store.ts';
export { jsonResponse };

export function endpoint<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  options: EndpointOptions<B, Q>,
  handle: (request: EndpointRequest<z.output<B>, z.output<Q>>) => Promise<EndpointResult>,
): ApiHandler {
  const definition = endpointDefinition(options.id);
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>().use(
    boundary(definition.id, { dialect: options.oauth ? 'oauth' : 'api' }),
  );
  if (options.oauth) chain.use(noStore());
  chain.use(allowMethods(definition.methods));
  if (options.body) chain.use(options.bodyFormat === 'form' ? formBody() : jsonBody());
  if (options.query) chain.use(queryParameters());
  chain.use(validate({ body: options.body, query: options.query }));
  if (definition.auth !== 'public') {
    chain.use(admitCaller(definition));
    chain.use(rateLimit((http) => (options.cost ? options.cost({ body: http.body as z.output<B>, query: http.query as z.output<Q> }) : 1), options.rateScope));
  }
  return chain.handler(async (event, context) => {
    const http = handlerState(context);
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
