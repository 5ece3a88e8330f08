/**
 * What API Gateway refuses by itself, before any function sees the request, and the local gateway
 * refuses alike (lib/local/gateway.ts), each with a 4xx in the spec's `{error}` shape. The OpenAPI
 * documents describe these answers on every operation (functions/openapi/responses.ts).
 */

/** A REST API's payload limit: a longer body answers 413. */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The request line and headers together: API Gateway's quota is about 10 KB; the local platform's
 * HTTP servers answer 431 beyond this (Node's default header limit, set explicitly).
 */
export const LOCAL_MAX_REQUEST_HEADER_BYTES = 16 * 1024;
