import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { boundary, type ApiHandler } from './endpoint.ts';
import { notFound, UNKNOWN_ENDPOINT } from './errors.ts';

/** Every path no endpoint defines, including version sub-paths that do not exist (spec 9). */
export const handler: ApiHandler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
  .use(boundary('fallback'))
  .handler(async () => {
    throw notFound(UNKNOWN_ENDPOINT);
  });
