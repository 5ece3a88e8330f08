import type { HttpMethod } from '../../../platform/endpoints.ts';
import { InvalidRequestError } from '../errors.ts';
import { header, isFormContentType, parseForm, rawBody } from '../forms.ts';
import { appliesTo } from './allow-methods.ts';
import { httpStateOf, type HttpMiddleware } from './http-state.ts';

export interface FormBodyOptions {
  /** Only requests with these methods carry a form (a page's POST); all of them when absent. */
  methods?: readonly HttpMethod[];
  /** What to say about a body that is not form-encoded. */
  notAForm?: string;
}

/**
 * Parses an `application/x-www-form-urlencoded` body (OAuth token and revocation requests, HTML
 * forms) into the request state, for `validate()` to check. A parameter sent twice is refused
 * (forms.ts).
 */
export function formBody(options: FormBodyOptions = {}): HttpMiddleware {
  return {
    before: (request) => {
      if (!appliesTo(options.methods, request.event.httpMethod)) return;
      if (!isFormContentType(header(request.event.headers, 'content-type'))) {
        throw new InvalidRequestError(options.notAForm ?? 'The body must be application/x-www-form-urlencoded');
      }
      httpStateOf(request).body = parseForm(rawBody(request.event) ?? '');
    },
  };
}
