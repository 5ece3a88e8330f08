import type { HttpMethod } from '../../../platform/endpoints.ts';
import { singleValuedQuery } from '../forms.ts';
import { appliesTo } from './allow-methods.ts';
import { httpStateOf, type HttpMiddleware } from './http-state.ts';

export interface QueryOptions {
  /** Only requests with these methods carry the query (a page's GET); all of them when absent. */
  methods?: readonly HttpMethod[];
  /**
   * Refuse a parameter sent twice (RFC 6749 3.1, for the browser pages). Otherwise the last value
   * counts, as in API Gateway's single-value map.
   */
  refuseRepeated?: boolean;
}

/** Puts the query parameters into the request state, for `validate()` to check. */
export function queryParameters(options: QueryOptions = {}): HttpMiddleware {
  return {
    before: (request) => {
      if (!appliesTo(options.methods, request.event.httpMethod)) return;
      httpStateOf(request).query = options.refuseRepeated
        ? singleValuedQuery(request.event.multiValueQueryStringParameters)
        : (request.event.queryStringParameters ?? {});
    },
  };
}
