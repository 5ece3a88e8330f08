import { principalLogLabel } from '../../auth/principal.ts';
import { logger } from '../../../platform/logger.ts';
import { httpStateOf, type HttpMiddleware, type HttpRequest } from './http-state.ts';

/**
 * One log line per request, written once its answer is final (also after an error): route,
 * method, status, duration and who called, as the key or the app, never the rider. The request
 * id comes with every line (logging.ts). Never bodies, headers or tokens.
 */
export function requestLog(routeId: string): HttpMiddleware {
  const write = (request: HttpRequest) => {
    const http = httpStateOf(request);
    logger.info('request', {
      route: routeId,
      method: request.event.httpMethod,
      status: request.response?.statusCode,
      durationMs: Date.now() - http.startedAt,
      ...(http.principal ? { principal: principalLogLabel(http.principal) } : {}),
    });
  };
  return { after: write, onError: write };
}
