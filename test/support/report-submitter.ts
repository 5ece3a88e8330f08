/**
 * A child process that runs the report submission handler once, as a Lambda container would, for
 * the test that kills the submitting function between its DynamoDB write and its enqueue
 * (test/local/reports-pipeline.test.ts). Input, as JSON in SUBMISSION: the request body and the
 * caller's authorizer context. The environment points it at the test's platform.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { handler } from '../../functions/reports/submit-handler.ts';

const input = JSON.parse(process.env.SUBMISSION ?? '{}') as { body: unknown; authorizer: Record<string, string> };
const event = {
  resource: '/reports',
  path: '/reports/',
  httpMethod: 'POST',
  headers: { 'Content-Type': 'application/json' },
  multiValueHeaders: {},
  queryStringParameters: null,
  multiValueQueryStringParameters: null,
  pathParameters: null,
  stageVariables: null,
  requestContext: { requestId: 'crash-test', authorizer: input.authorizer },
  body: JSON.stringify(input.body),
  isBase64Encoded: false,
} as unknown as APIGatewayProxyEvent;
const context = { awsRequestId: 'crash-test', functionName: 'reports-submit', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

const result = await handler(event, context);
process.stdout.write(`${JSON.stringify(result)}\n`);
