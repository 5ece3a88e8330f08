import type { z } from 'zod';
import { validationError } from '../validation.ts';
import { httpStateOf, type HttpMiddleware } from './http-state.ts';

/**
 * Checks what the body and query middlewares parsed against the endpoint's zod schemas and keeps
 * zod's output for the handler. A part that was not parsed for this request (the form of a
 * page's GET) is left alone. A failure is an invalid request naming the field and the problem,
 * and every problem when there are several.
 */
export function validate(schemas: { body?: z.ZodType | undefined; query?: z.ZodType | undefined }): HttpMiddleware {
  return {
    before: (request) => {
      const http = httpStateOf(request);
      for (const part of ['body', 'query'] as const) {
        const schema = schemas[part];
        if (!schema || http[part] === undefined) continue;
        const result = schema.safeParse(http[part]);
        if (!result.success) throw validationError(result.error, part);
        http[part] = result.data;
      }
    },
  };
}
