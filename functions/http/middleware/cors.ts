import { httpStateOf, type HttpMiddleware } from './http-state.ts';

/** The response headers a browser app on another origin may read. */
const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Idempotent-Replayed, Content-Disposition';

/**
 * `Access-Control-Allow-Origin: *` on every answer, errors included, so browser apps can read
 * them. Preflight requests never reach a function: API Gateway answers them (lib/gateway-
 * responses.ts). HTML pages leave this out: no other origin should read them.
 */
export function cors(): HttpMiddleware {
  return {
    before: (request) => {
      Object.assign(httpStateOf(request).responseHeaders, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Expose-Headers': EXPOSED_HEADERS,
      });
    },
  };
}
