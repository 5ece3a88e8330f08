import { MISSING_CREDENTIALS } from '../platform/credential-refusals.ts';

/**
 * What API Gateway answers by itself, before or instead of a function, in the platform's error
 * shape. The CDK stack installs these as gateway responses; the local gateway renders the same
 * templates (`$context.authorizer.error` and `$context.error.messageString` are substituted).
 */

export type GatewayResponseType =
  | 'ACCESS_DENIED'
  | 'UNAUTHORIZED'
  | 'THROTTLED'
  | 'QUOTA_EXCEEDED'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

export interface GatewayResponseDefinition {
  readonly status: number;
  readonly template: string;
}

export const gatewayResponses: Record<GatewayResponseType, GatewayResponseDefinition> = {
  // The authorizer refuses with Deny and puts the spec's message in its context.
  ACCESS_DENIED: { status: 401, template: '{"error":"$context.authorizer.error"}' },
  UNAUTHORIZED: { status: 401, template: JSON.stringify({ error: MISSING_CREDENTIALS }) },
  THROTTLED: { status: 429, template: '{"error":"Rate limit exceeded"}' },
  QUOTA_EXCEEDED: { status: 429, template: '{"error":"Rate limit exceeded"}' },
  DEFAULT_4XX: { status: 400, template: '{"error":"$context.error.messageString"}' },
  DEFAULT_5XX: { status: 500, template: '{"error":"Internal server error"}' },
};

/** Headers on every gateway response, so browsers can read the errors too. */
export const gatewayResponseHeaders: Record<string, string> = { 'Access-Control-Allow-Origin': '*' };

/** CORS preflight, answered by API Gateway for every resource. */
export const corsPreflight = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['Content-Type', 'apikey', 'Authorization', 'X-Requested-With', 'Idempotency-Key'],
  maxAgeSeconds: 600,
} as const;

/** Request bodies API Gateway passes to functions base64-encoded. */
export const binaryMediaTypes = ['multipart/form-data', 'image/*', 'application/octet-stream'] as const;
