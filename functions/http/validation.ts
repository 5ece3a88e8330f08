import type { z } from 'zod';
import { InvalidRequestError } from './errors.ts';

/** `coordinates[1][0]` style path of a zod issue, so the message names the field. */
function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : text ? `.${String(part)}` : String(part);
  }
  return text;
}

/** One error naming the first problem; every problem is listed in `details` when there are several. */
export function validationError(error: z.ZodError, where: 'body' | 'query' | 'path'): InvalidRequestError {
  const messages = error.issues.map((issue) => {
    const field = fieldPath(issue.path);
    return field ? `${field}: ${issue.message}` : `${where}: ${issue.message}`;
  });
  // A rule between fields may name its failure (`params.code`), as the spec's error body can.
  const first = error.issues[0];
  const code = first?.code === 'custom' && typeof first.params?.code === 'string' ? first.params.code : undefined;
  return new InvalidRequestError(messages[0] ?? `Invalid request ${where}`, messages.length > 1 ? messages.join('; ') : undefined, code);
}
