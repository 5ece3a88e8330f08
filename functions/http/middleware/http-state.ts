import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { fromAuthorizerContext, type Principal } from '../../auth/principal.ts';
import type { RepeatableRequest } from '../../../platform/idempotency.ts';
import type { RateDecision } from '../../ratelimit/windows.ts';
import { requestIdOf } from '../../../platform/invocation-logging.ts';

/**
 * The HTTP chain's per-request state. `httpState()`, the first HTTP middleware, puts it on the
 * invocation's context, the way middy's own middlewares hand what they produce to the handler
 * (`setToContext`): every invocation has a context object of its own, so requests running at
 * the same time never share state. The middlewares read and write it with `httpStateOf`, the
 * handler factories with `handlerState`.
 */

export interface HttpState {
  startedAt: number;
  /** API Gateway's request id (`x-amzn-RequestId`), or the invocation's id when there is none. */
  requestId: string;
  /** Who the authorizer let through; null on public endpoints. */
  principal: Principal | null;
  /** Headers every answer to this request carries, the handler's or an error's: CORS, request id, rate limits, no-store. */
  responseHeaders: Record<string, string>;
  rateDecision?: RateDecision;
  /** The body and the query as parsed, then as validated (zod's output). */
  body?: unknown;
  query?: unknown;
  /** Set when the request carries a valid `Idempotency-Key` (middleware/idempotency-key.ts). */
  repeatable?: RepeatableRequest;
}

export type HttpContext = Context & { http?: HttpState };
export type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>;
export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>;

/** The request's state, created on first use, so that an error raised before `httpState()` ran still gets its answer. */
export function httpStateOf(request: HttpRequest): HttpState {
  if (!request.context.http) {
    const requestId = requestIdOf(request.event, request.context);
    request.context.http = {
      startedAt: Date.now(),
      requestId,
      principal: fromAuthorizerContext(request.event.requestContext?.authorizer),
      responseHeaders: { 'X-Request-Id': requestId },
    };
  }
  return request.context.http;
}

/** The state as the handler sees it, after every middleware's `before`. */
export function handlerState(context: HttpContext): HttpState {
  if (!context.http) throw new Error('HTTP state read before the httpState middleware ran');
  return context.http;
}

/** Creates the state, and puts its response headers on the final answer, whether the handler's or an error's. */
export function httpState(): HttpMiddleware {
  const finish = (request: HttpRequest) => {
    if (request.response) request.response.headers = { ...request.response.headers, ...httpStateOf(request).responseHeaders };
  };
  return {
    before: (request) => {
      httpStateOf(request);
    },
    after: finish,
    onError: finish,
  };
}
