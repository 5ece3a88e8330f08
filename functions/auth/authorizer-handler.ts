import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { logger } from '../platform/logger.ts';
import { authenticate } from './credentials.ts';
import { toAuthorizerContext } from './principal.ts';

/**
 * The REQUEST authorizer in front of every credentialed endpoint. A refusal is a Deny whose
 * context carries the spec's message; the API's ACCESS_DENIED gateway response renders it as
 * 401 `{"error": ...}`. An allowed API key is returned as `usageIdentifierKey`, so API Gateway
 * usage plans meter it (`apiKeySource: AUTHORIZER`).
 */
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const decision = await authenticate(event.headers ?? {});
  if (!decision.allow) {
    logger.info('credential refused', { path: event.path, reason: decision.error });
    return {
      principalId: 'anonymous',
      policyDocument: policy('Deny', event.methodArn),
      context: { error: decision.error },
    };
  }
  return {
    principalId: decision.principal.rateBucket,
    policyDocument: policy('Allow', event.methodArn),
    context: toAuthorizerContext(decision.principal),
    ...(decision.usageIdentifierKey ? { usageIdentifierKey: decision.usageIdentifierKey } : {}),
  };
}

function policy(effect: 'Allow' | 'Deny', methodArn: string): APIGatewayAuthorizerResult['policyDocument'] {
  return { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: methodArn }] };
}
