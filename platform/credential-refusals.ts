/**
 * The spec's refusals of a request's credential (spec 7), word for word: the authorizer and the
 * handlers answer them, and API Gateway answers the first itself when a request brings no
 * credential at all (lib/gateway-responses.ts).
 */
export const MISSING_CREDENTIALS = 'Authentication credentials were not provided.';
export const INVALID_CREDENTIALS = 'Invalid credentials';
