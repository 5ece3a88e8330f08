import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { z } from 'zod';
import { endpointDefinition } from '../../platform/endpoints.ts';
import { boundary } from './boundary.ts';
import type { ApiHandler } from './endpoint.ts';
import type { HttpError } from './errors.ts';
import { header, parseCookies } from './forms.ts';
import { allowMethods } from './middleware/allow-methods.ts';
import { formBody } from './middleware/form-body.ts';
import { handlerState, type HttpContext } from './middleware/http-state.ts';
import { queryParameters } from './middleware/query.ts';
import { validate } from './middleware/validate.ts';

/**
 * The conventions of browser-facing endpoints (the authorization endpoint and the consent
 * screen), on the same boundary and with the same parsing and validation middlewares as the
 * JSON endpoints: a GET's query (each parameter once, RFC 6749 3.1) and a POST's form validated
 * with zod, answers that are HTML pages or redirects, refusals rendered as error pages, and the
 * headers a page that asks for a rider's consent must carry (no framing, no caching, no
 * referrer, a strict content security policy, no CORS).
 */

export interface PageRequest<Form, Query> {
  method: 'GET' | 'POST';
  form: Form;
  query: Query;
  cookies: Record<string, string>;
  headers: Record<string, string | undefined>;
  requestId: string;
  /** The browser reached us over HTTPS (always in AWS): cookies are then `Secure`. */
  secureTransport: boolean;
}

export type PageResult =
  | { html: string; status?: number; setCookie?: string }
  /** 302 after a GET, 303 after a POST (the browser then GETs the target). */
  | { redirectTo: string; setCookie?: string };

export interface PageOptions<F extends z.ZodType, Q extends z.ZodType> {
  /** The endpoint's id in platform/endpoints.ts. */
  id: string;
  /** Fields of a POSTed form (`application/x-www-form-urlencoded`); a POST reads only these. */
  form?: F;
  /** Query parameters of a GET; each may appear once (RFC 6749 3.1). */
  query?: Q;
  /** Renders an error as a whole page: a short title and one sentence for the rider. */
  errorPage: (title: string, message: string) => string;
}

const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  // Inline styles only; no scripts, frames, plugins or foreign resources. Forms may post only to
  // this origin; `form-action` is left out because browsers apply it to the redirect after a
  // post, which leaves for the app's registered redirect URI.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function htmlResponse(status: number, html: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: status, headers: { ...PAGE_HEADERS, ...headers }, body: html };
}

export function page<F extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  options: PageOptions<F, Q>,
  handle: (request: PageRequest<z.output<F>, z.output<Q>>) => Promise<PageResult>,
): ApiHandler {
  const definition = endpointDefinition(options.id);
  // A refusal's `error` is the page's title and its `details` the sentence under it.
  const renderError = (error: HttpError) =>
    error.status === 405
      ? htmlResponse(405, options.errorPage('Method not allowed', 'This page cannot be used that way.'), error.headers)
      : htmlResponse(error.status, options.errorPage(error.body.error, error.body.details ?? ''), error.headers);

  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>()
    .use(boundary(definition.id, { dialect: 'page', renderError, cors: false }))
    .use(allowMethods(definition.methods));
  if (options.form) chain.use(formBody({ methods: ['POST'], notAForm: 'The form was not sent as a form.' }));
  if (options.query) chain.use(queryParameters({ methods: ['GET'], refuseRepeated: true }));
  chain.use(validate({ body: options.form, query: options.query }));
  return chain.handler(async (event, context) => {
    const http = handlerState(context);
    const method = event.httpMethod.toUpperCase() as 'GET' | 'POST';
    const result = await handle({
      method,
      form: http.body as z.output<F>,
      query: http.query as z.output<Q>,
      cookies: parseCookies(header(event.headers, 'cookie')),
      headers: event.headers ?? {},
      requestId: http.requestId,
      secureTransport: header(event.headers, 'x-forwarded-proto') === 'https',
    });
    const cookie: Record<string, string> = result.setCookie ? { 'Set-Cookie': result.setCookie } : {};
    if ('redirectTo' in result) {
      return htmlResponse(method === 'POST' ? 303 : 302, '', { Location: result.redirectTo, ...cookie });
    }
    return htmlResponse(result.status ?? 200, result.html, cookie);
  }) as ApiHandler;
}
