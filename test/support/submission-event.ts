import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/**
 * POST /reports/ as API Gateway hands it to the submission function, for tests that run the
 * handler themselves: in a child process they kill (report-submitter.ts), or in the test's own.
 */
export interface Submission {
  body: unknown;
  /** The caller as the authorizer's context (strings, as API Gateway delivers it). */
  authorizer: Record<string, string>;
  headers?: Record<string, string>;
}

export function submissionEvent(submission: Submission, requestId: string): APIGatewayProxyEvent {
  const headers = { 'Content-Type': 'application/json', ...submission.headers };
  return {
    resource: '/reports',
    path: '/reports/',
    httpMethod: 'POST',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId, authorizer: submission.authorizer },
    body: JSON.stringify(submission.body),
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEvent;
}

/** A Lambda context with `remainingMs` left: an answer "in progress" under an Idempotency-Key expires then. */
export function submissionContext(requestId: string, remainingMs: number): Context {
  const deadline = performance.now() + remainingMs;
  return { awsRequestId: requestId, functionName: 'reports-submit', getRemainingTimeInMillis: () => Math.max(0, deadline - performance.now()) } as unknown as Context;
}
