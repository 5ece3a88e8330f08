import type { APIGatewayProxyEvent } from 'aws-lambda';
import { header } from './forms.ts';

/** API Gateway's own host names, whose URLs carry the stage as their first path segment. */
const EXECUTE_API_HOST = /\.execute-api\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/i;

/**
 * The API's base URL as the caller reached it: the scheme API Gateway reports, the `Host` it was
 * called on, and the stage on an execute-api host (a custom domain maps the API at its root).
 * API Gateway routes by host, so the name is one of the API's own, never the caller's choice.
 */
export function requestBaseUrl(event: Pick<APIGatewayProxyEvent, 'headers' | 'requestContext'>): string {
  const host = header(event.headers, 'host') ?? 'localhost';
  const scheme = header(event.headers, 'x-forwarded-proto') ?? 'http';
  const stage = EXECUTE_API_HOST.test(host) ? `/${event.requestContext.stage}` : '';
  return `${scheme}://${host}${stage}`;
}
