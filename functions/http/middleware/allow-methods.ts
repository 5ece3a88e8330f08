import type { HttpMethod } from '../../../platform/endpoints.ts';
import { methodNotAllowed } from '../errors.ts';
import type { HttpMiddleware } from './http-state.ts';

/** 405 with `Allow` for a method the endpoint's definition does not list (API Gateway routes every method of a path here). */
export function allowMethods(methods: readonly HttpMethod[]): HttpMiddleware {
  return {
    before: (request) => {
      if (!methods.includes(request.event.httpMethod.toUpperCase() as HttpMethod)) throw methodNotAllowed(methods);
    },
  };
}

/** Whether a body or query middleware limited to `methods` applies to this request. */
export const appliesTo = (methods: readonly HttpMethod[] | undefined, method: string): boolean =>
  !methods || methods.includes(method.toUpperCase() as HttpMethod);
