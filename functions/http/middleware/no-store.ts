import { httpStateOf, type HttpMiddleware } from './http-state.ts';

/** RFC 6749 5.1: responses carrying tokens, and their errors, must not be cached. */
export function noStore(): HttpMiddleware {
  return {
    before: (request) => {
      Object.assign(httpStateOf(request).responseHeaders, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    },
  };
}
