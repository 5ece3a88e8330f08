import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { invocationSignals } from '../../platform/invocation-logging.ts';
import { oauthAccessTokenVerifier } from '../oauth/access-tokens.ts';
import { apiDefinitions, authorizedEndpointAt } from '../../platform/endpoints.ts';
import { logger } from '../../platform/logger.ts';
import { riderTokenVerifier } from '../riders/identity-provider-client.ts';
import { admission, OAUTH_TOKEN_NOT_ACCEPTED, RIDER_TOKEN_REQUIRED } from '../auth/admission.ts';
import { INVALID_CREDENTIALS, MISSING_CREDENTIALS } from '../../platform/credential-refusals.ts';
import { authenticate, registerBearerVerifier } from '../auth/credentials.ts';
import { recordMetric } from '../../platform/metrics.ts';
import { principalLogLabel, toAuthorizerContext } from '../auth/principal.ts';

registerBearerVerifier(oauthAccessTokenVerifier);
registerBearerVerifier(riderTokenVerifier);

/**
 * The REQUEST authorizer in front of every credentialed endpoint. A refusal is a Deny whose
 * context carries the spec's message; the API's ACCESS_DENIED gateway response renders it as
 * 401 `{"error": ...}`. On the metered API an allowed caller's usage-plan key is returned as
 * `usageIdentifierKey` (`apiKeySource: AUTHORIZER`): for an API key the value derived from its key
 * id (usage-keys.ts; never the key itself), for an OAuth access
 * token the app's usage key, so API Gateway meters the app, and for a rider's own session the
 * one usage key of rider sessions (the platform's limiter keeps each rider's own count). Its log
 * lines carry the request's API Gateway id, as the handler's lines behind it do.
 */
async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const endpoint = authorizedEndpointAt(event.resource);
  if (!endpoint) {
    // Fail closed: a route the definitions do not know is never let through.
    return deny(event, INVALID_CREDENTIALS, UNKNOWN_RESOURCE);
  }
  const decision = await authenticate(event.headers ?? {});
  if (!decision.allow) return deny(event, decision.error, decision.error);
  const verdict = admission(endpoint, decision.principal);
  // A 403 is left to the function: API Gateway renders every authorizer refusal with the one
  // status of the API's ACCESS_DENIED response (401), so the principal goes on and the handler's
  // HTTP chain (functions/http/middleware/admission.ts) answers 403 before any handler code runs.
  if (!verdict.admit && verdict.status === 401) return deny(event, verdict.error, verdict.error);
  const metered = apiDefinitions[endpoint.api].meteredByUsagePlans;
  return {
    // Access logs may show the principal id: the key or the app, never the rider.
    principalId: principalLogLabel(decision.principal),
    policyDocument: policy('Allow', event.methodArn),
    context: toAuthorizerContext(decision.principal),
    ...(metered && decision.usageIdentifierKey ? { usageIdentifierKey: decision.usageIdentifierKey } : {}),
  };
}

export const handler = middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>()
  .use(invocationSignals())
  .handler(authorize) as unknown as (event: APIGatewayRequestAuthorizerEvent, context?: Context) => Promise<APIGatewayAuthorizerResult>;

const UNKNOWN_RESOURCE = 'no endpoint definition for resource';

/** A refusal's reason as a metric dimension: a short fixed word per refusal the authorizer makes. */
const REFUSAL_REASONS: Readonly<Record<string, string>> = {
  [MISSING_CREDENTIALS]: 'missing',
  [INVALID_CREDENTIALS]: 'invalid',
  [OAUTH_TOKEN_NOT_ACCEPTED]: 'oauth-not-accepted',
  [RIDER_TOKEN_REQUIRED]: 'rider-token-required',
  [UNKNOWN_RESOURCE]: 'unknown-resource',
};

function deny(event: APIGatewayRequestAuthorizerEvent, error: string, reason: string): APIGatewayAuthorizerResult {
  logger.info('credential refused', { path: event.path, reason });
  recordMetric('AuthorizerRefusals', 1, { Reason: REFUSAL_REASONS[reason] ?? 'other' });
  return { principalId: 'anonymous', policyDocument: policy('Deny', event.methodArn), context: { error } };
}

function policy(effect: 'Allow' | 'Deny', methodArn: string): APIGatewayAuthorizerResult['policyDocument'] {
  return { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: methodArn }] };
}
