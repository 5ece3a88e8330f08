import type { HttpMethod } from '../../../platform/endpoints.ts';
import { InvalidRequestError } from '../errors.ts';
import { rawBody } from '../forms.ts';
import { appliesTo } from './allow-methods.ts';
import { httpStateOf, type HttpMiddleware } from './http-state.ts';

export interface JsonBodyOptions {
  /** Only requests with these methods carry a body (not an endpoint's GET); all of them when absent. */
  methods?: readonly HttpMethod[];
}

/**
 * Parses the body as a JSON object into the request state, for `validate()` to check. A missing
 * body, one that is not JSON, or JSON that is not an object is an invalid request that says so.
 */
export function jsonBody(options: JsonBodyOptions = {}): HttpMiddleware {
  return {
    before: (request) => {
      if (!appliesTo(options.methods, request.event.httpMethod)) return;
      httpStateOf(request).body = parseJsonObject(rawBody(request.event));
    },
  };
}

function parseJsonObject(text: string | null): Record<string, unknown> {
  if (text === null || text.trim() === '') throw new InvalidRequestError('Request body is required: a JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InvalidRequestError('Invalid JSON body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidRequestError('Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
