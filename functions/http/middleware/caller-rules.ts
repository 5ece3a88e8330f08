import { InvalidRequestError } from '../errors.ts';
import { httpStateOf, type HttpMiddleware, type HttpState } from './http-state.ts';

/**
 * Validation that depends on the caller as well as the body (a partner key must send its own
 * source slug): runs after admission, before rate limiting, so what it refuses costs nothing. A
 * problem is a 400 naming the field, like zod's.
 */
export function callerRules(problem: (http: HttpState) => string | null): HttpMiddleware {
  return {
    before: (request) => {
      const found = problem(httpStateOf(request));
      if (found) throw new InvalidRequestError(found);
    },
  };
}
