import type { APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../../../platform/logger.ts';
import { httpErrorOf, internalError, type ErrorDialect, type HttpError } from '../errors.ts';
import { jsonResponse } from '../responses.ts';
import type { HttpMiddleware } from './http-state.ts';

export interface ErrorBoundaryOptions {
  /** Which shape refusals take (functions/http/errors.ts); the spec's JSON unless said otherwise. */
  dialect?: ErrorDialect;
  /** How an answer is rendered; JSON unless a page renders it as HTML. */
  renderError?: (error: HttpError) => APIGatewayProxyResult;
}

/**
 * Turns whatever the chain or the handler threw into the caller's answer: a refusal (an HTTP
 * error, an invalid request, a domain error) through the one mapping in functions/http/
 * errors.ts; anything else is a fault, logged with its stack and answered 500 without internals.
 */
export function errorBoundary(routeId: string, options: ErrorBoundaryOptions = {}): HttpMiddleware {
  const render = options.renderError ?? ((error: HttpError) => jsonResponse(error.status, error.body, error.headers));
  return {
    onError: (request) => {
      let answer = httpErrorOf(request.error, options.dialect);
      if (!answer) {
        logger.error('unhandled error', { route: routeId, error: request.error as Error });
        answer = internalError();
      }
      request.response = render(answer);
    },
  };
}
