import { cors } from './middleware/cors.ts';
import { errorBoundary, type ErrorBoundaryOptions } from './middleware/error-boundary.ts';
import { httpState, type HttpMiddleware } from './middleware/http-state.ts';
import { invocationSignals } from '../../platform/invocation-logging.ts';
import { requestLog } from './middleware/request-log.ts';

export interface BoundaryOptions extends ErrorBoundaryOptions {
  /** `Access-Control-Allow-Origin: *`; off for HTML pages, which no other origin should read. */
  cors?: boolean;
}

/**
 * The outer middlewares every HTTP handler starts with (JSON endpoints, pages, the fallback), in
 * middy's order: `before` runs top to bottom, `after` and `onError` bottom to top. So an error
 * is rendered first, then logged with its final status, then the state's headers are put on the
 * answer, and only then are the invocation's metrics published and its log keys forgotten.
 */
export function boundary(routeId: string, options: BoundaryOptions = {}): HttpMiddleware[] {
  return [
    ...(invocationSignals() as HttpMiddleware[]),
    httpState(),
    requestLog(routeId),
    ...(options.cors === false ? [] : [cors()]),
    errorBoundary(routeId, options),
  ];
}
