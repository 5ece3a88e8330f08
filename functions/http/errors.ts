/** The platform's error body (spec 7): `{error, code?, details?}` plus routing and rate-limit extras. */
export interface ErrorBody {
  error: string;
  /** OAuth endpoints (RFC 6749 5.2): `error` is the code, this the human-readable text. */
  error_description?: string;
  code?: string;
  details?: string;
  search_id?: string;
  retry_after_seconds?: number;
}

/** An error that is the caller's answer: its status and body are sent as they are. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.error);
    this.name = 'HttpError';
  }
}

export const UNKNOWN_ENDPOINT = 'Unknown endpoint or API version';
export const MISSING_CREDENTIALS = 'Authentication credentials were not provided.';
export const INVALID_CREDENTIALS = 'Invalid credentials';

export function badRequest(error: string, extra: Omit<ErrorBody, 'error'> = {}): HttpError {
  return new HttpError(400, { error, ...extra });
}

export function notFound(error: string): HttpError {
  return new HttpError(404, { error });
}

export function forbidden(error: string): HttpError {
  return new HttpError(403, { error });
}

export function methodNotAllowed(allowed: readonly string[]): HttpError {
  return new HttpError(405, { error: 'Method not allowed' }, { Allow: allowed.join(', ') });
}

export function rateLimitExceeded(retryAfterSeconds: number): HttpError {
  return new HttpError(
    429,
    { error: 'Rate limit exceeded', retry_after_seconds: retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** 503: routing cannot answer right now; distinct from a 200 whose route is null. */
export function routingUnavailable(details: string, searchId?: string): HttpError {
  return new HttpError(503, {
    error: 'Routing is temporarily unavailable; retry after a short delay',
    code: 'ROUTING_UNAVAILABLE',
    details,
    ...(searchId ? { search_id: searchId } : {}),
  });
}

export const internalError = (): HttpError => new HttpError(500, { error: 'Internal server error' });

/**
 * 400 whose body maps each field to its messages (spec 7: validation errors on profile update),
 * plus `error` summarising them for clients that read only that.
 */
export function fieldValidationError(messages: Record<string, string[]>): HttpError {
  const summary = Object.entries(messages)
    .map(([field, list]) => `${field}: ${list.join(' ')}`)
    .join('; ');
  return new HttpError(400, { ...messages, error: summary } as unknown as ErrorBody);
}
