import type { HttpMethod } from '../../../platform/endpoints.ts';
import { parseMultipartBody } from '../multipart.ts';
import { appliesTo } from './allow-methods.ts';
import { httpStateOf, type HttpMiddleware } from './http-state.ts';

export interface MultipartBodyOptions {
  /** The longest file part a body may carry; a longer one answers 413. */
  maxFileBytes: number;
  /** Only requests with these methods carry a body; all of them when absent. */
  methods?: readonly HttpMethod[];
}

/**
 * Parses a `multipart/form-data` body (file uploads, multipart.ts) into the request state, for
 * `validate()` to check: files as `MultipartFile`, other fields as strings.
 */
export function multipartBody(options: MultipartBodyOptions): HttpMiddleware {
  return {
    before: async (request) => {
      if (!appliesTo(options.methods, request.event.httpMethod)) return;
      httpStateOf(request).body = await parseMultipartBody(request.event, options.maxFileBytes);
    },
  };
}
