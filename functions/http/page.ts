import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { endpointDefinition } from '../platform/endpoints.ts';
import { allowMethods, boundary, rawBody, requestIdOf, type ApiHandler } from './endpoint.ts';
import { HttpError } from './errors.ts';
import { header, isFormContentType, parseCookies, parseForm, singleValuedQuery } from './forms.ts';
import { validationError } from './validation.ts';

/**
 * The conventions of browser-facing endpoints (the authorization endpoint and the consent
 * screen), on the same boundary as the JSON endpoints: query strings and form posts validated
 * with zod, answers that are HTML pages or redirects, errors rendered as pages, and the headers
 * a page that asks for a rider's consent must carry (no framing, no caching, no referrer, a
 * strict content security policy, no CORS).
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
  /** The endpoint's id in functions/platform/endpoints.ts. */
  id: string;
  /** Fields of a POSTed form (`application/x-www-form-urlencoded`); a POST reads only these. */
  form?: F;
  /** Query parameters of a GET; each may appear once (RFC 6749 3.1). */
  query?: Q;
  /** Renders an error as a whole page: a short title and one sentence for the rider. */
  errorPage: (title: string, message: string) => string;
}

/** A refusal shown to the rider as a page. */
export function pageError(status: number, title: string, message: string): HttpError {
  return new HttpError(status, { error: title, details: message });
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
  const invalid = (message: string) => pageError(400, 'This request is not valid', message);

  const renderError = (error: HttpError) =>
    error.status === 405
      ? htmlResponse(405, options.errorPage('Method not allowed', 'This page cannot be used that way.'), error.headers)
      : htmlResponse(error.status, options.errorPage(error.body.error, error.body.details ?? ''), error.headers);

  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(boundary(definition.id, { renderError, cors: false }))
    .use(allowMethods(definition.methods))
    .handler(async (event) => {
      const method = event.httpMethod.toUpperCase() as 'GET' | 'POST';
      let form: unknown;
      let query: unknown;
      if (method === 'POST' && options.form) {
        if (!isFormContentType(header(event.headers, 'content-type'))) throw invalid('The form was not sent as a form.');
        const result = options.form.safeParse(parseForm(rawBody(event) ?? '', invalid));
        if (!result.success) throw invalid(validationError(result.error, 'body').body.error);
        form = result.data;
      }
      if (method === 'GET' && options.query) {
        const result = options.query.safeParse(singleValuedQuery(event.multiValueQueryStringParameters, invalid));
        if (!result.success) throw invalid(validationError(result.error, 'query').body.error);
        query = result.data;
      }
      const result = await handle({
        method,
        form: form as z.output<F>,
        query: query as z.output<Q>,
        cookies: parseCookies(header(event.headers, 'cookie')),
        headers: event.headers ?? {},
        requestId: requestIdOf(event),
        secureTransport: header(event.headers, 'x-forwarded-proto') === 'https',
      });
      const cookie: Record<string, string> = result.setCookie ? { 'Set-Cookie': result.setCookie } : {};
      if ('redirectTo' in result) {
        return htmlResponse(method === 'POST' ? 303 : 302, '', { Location: result.redirectTo, ...cookie });
      }
      return htmlResponse(result.status ?? 200, result.html, cookie);
    }) as ApiHandler;
}
