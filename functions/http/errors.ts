import { randomUUID } from 'node:crypto';
import { OAuthError } from '../../platform/oauth-errors.ts';
import { DomainError, FieldValidationError, LimitReachedError, type RefusalKind } from '../../platform/errors.ts';
import { GraphUnavailableError, RouteBudgetExceededError } from '../../core/routing/errors.ts';

/**
 * The one place that knows HTTP statuses. Domain code throws domain errors (platform/
 * errors.ts, `OAuthError`, `GraphUnavailableError`, ...) and the HTTP chain throws
 * `InvalidRequestError`; `httpErrorOf` turns each into the answer the caller gets, in the
 * dialect of the endpoint: the spec's `{error, code?, details?}`, RFC 6749's
 * `{error, error_description}`, or an error page's title and sentence.
 */

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

/** 400 `CROSS_CITY_ROUTE` (spec 4.1 rule 1, 4.2 rule 9): the points span cities or lie outside every covered one. */
export function crossCityRoute(searchId: string): HttpError {
  return badRequest('Cross-city routing is not supported: every coordinate must lie in one covered city', { code: 'CROSS_CITY_ROUTE', search_id: searchId });
}

/** The `code` of a GPX request whose answer has no route (README, "GPX"): a 200 with `route: null` in JSON. */
export const NO_ROUTE_TO_EXPORT = 'NO_ROUTE';

/** 422 `NO_ROUTE`: a route was asked for as a file (GPX) and none joins the waypoints, so there is nothing to write. */
export function noRouteToExport(searchId: string): HttpError {
  return new HttpError(422, { error: 'No route joins the waypoints: there is no route to export', code: NO_ROUTE_TO_EXPORT, search_id: searchId });
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

/** The `code` of a request refused by its compute budget (core/routing/planning/budget.ts). */
export const ROUTE_BUDGET_EXCEEDED = 'ROUTE_BUDGET_EXCEEDED';

/** 422 `ROUTE_BUDGET_EXCEEDED`: more routing work than one request may ask; `details` names the limit and the figures. */
export function routeBudgetExceeded(error: RouteBudgetExceededError): HttpError {
  return new HttpError(422, {
    error: 'The request needs more routing work than one request may do: split the trip into several requests',
    code: ROUTE_BUDGET_EXCEEDED,
    details: error.message,
  });
}

export const internalError = (): HttpError => new HttpError(500, { error: 'Internal server error' });

/** 413: a request body part beyond the endpoint's size limit. */
export function payloadTooLarge(error: string): HttpError {
  return new HttpError(413, { error });
}

/**
 * 400 whose body maps each field to its messages (spec 7: validation errors on profile update),
 * plus `error` summarising them (the domain error's message) for clients that read only that.
 */
export function fieldValidationError(error: FieldValidationError): HttpError {
  return new HttpError(400, { ...error.fields, error: error.message } as unknown as ErrorBody);
}

/**
 * The request itself is malformed: a body that does not parse, a field that breaks its rule, a
 * repeated parameter. Thrown by the HTTP chain's parsing and validation middlewares.
 */
export class InvalidRequestError extends Error {
  constructor(
    message: string,
    /** Every problem, when there are several; `message` names the first. */
    readonly details?: string,
    /** The spec's error `code`, where the first problem has one (a rule between fields that names its failure). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'InvalidRequestError';
  }
}

const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  expired: 410,
  unprocessable: 422,
  'too-large': 413,
  limited: 429,
  failed: 500,
};

/** `api`: the spec's JSON; `oauth`: RFC 6749 5.2 for the token and revocation endpoints; `page`: an HTML error page. */
export type ErrorDialect = 'api' | 'oauth' | 'page';

/** RFC 6749 5.2: a client that failed to authenticate gets 401 and the scheme it should use. */
const CLIENT_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="spoke-oauth", charset="UTF-8"' };

/** The caller's answer for `error`, or undefined for a fault, which the boundary answers with a 500. */
export function httpErrorOf(error: unknown, dialect: ErrorDialect = 'api'): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof InvalidRequestError) {
    if (dialect === 'oauth') return httpErrorOf(new OAuthError('invalid_request', error.details ?? error.message));
    if (dialect === 'page') return new HttpError(400, { error: 'This request is not valid', details: error.message });
    return badRequest(error.message, { ...(error.code ? { code: error.code } : {}), ...(error.details ? { details: error.details } : {}) });
  }
  if (error instanceof OAuthError) {
    const client = error.code === 'invalid_client';
    return new HttpError(client ? 401 : 400, { error: error.code, error_description: error.description }, client ? CLIENT_CHALLENGE : {});
  }
  if (error instanceof FieldValidationError) return fieldValidationError(error);
  if (error instanceof LimitReachedError) {
    const seconds = error.retryAfterSeconds;
    return new HttpError(429, { error: error.message, retry_after_seconds: seconds }, { 'Retry-After': String(seconds) });
  }
  if (error instanceof DomainError) {
    return new HttpError(REFUSAL_STATUS[error.kind], {
      error: error.message,
      ...(error.code ? { code: error.code } : {}),
      ...(error.details ? { details: error.details } : {}),
    });
  }
  if (error instanceof RouteBudgetExceededError) return routeBudgetExceeded(error);
  if (error instanceof GraphUnavailableError) return routingUnavailable(`No routing graph is available for ${error.city}`, randomUUID());
  return undefined;
}
