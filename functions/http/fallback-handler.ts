import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { boundary } from './boundary.ts';
import type { ApiHandler } from './endpoint.ts';
import { notFound, UNKNOWN_ENDPOINT } from './errors.ts';
import type { HttpContext } from './middleware/http-state.ts';

/** Every path no endpoint defines, including version sub-paths that do not exist (spec 9). */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>()
  .use(boundary('fallback'))
  .handler(async () => {
    throw notFound(UNKNOWN_ENDPOINT);
  }) as ApiHandler;
