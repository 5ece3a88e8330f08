import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidRequestError } from './errors.ts';

/**
 * Reading a request: headers, the raw body, `application/x-www-form-urlencoded` bodies (HTML
 * forms, OAuth token and revocation requests), query parameters and cookies. A form or query
 * parameter sent twice is refused: RFC 6749 3.1 and 3.2 forbid it, and accepting either copy
 * would let two parts of a system read different values. Every name is the client's, so the maps
 * built here have no prototype.
 */

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export function header(headers: Record<string, string | undefined> | null | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** The body as text, decoded when API Gateway passed it base64-encoded. */
export function rawBody(event: APIGatewayProxyEvent): string | null {
  if (event.body === null || event.body === undefined) return null;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

export function isFormContentType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === FORM_CONTENT_TYPE;
}

/** Form fields as a plain map. */
export function parseForm(text: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name)) throw new InvalidRequestError(`Parameter ${name} is repeated`);
    fields[name] = value;
  }
  return fields;
}

/** Query parameters the same way, from the multi-value map API Gateway passes. */
export function singleValuedQuery(multi: Record<string, string[] | undefined> | null | undefined): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  for (const [name, values] of Object.entries(multi ?? {})) {
    if (!values?.length) continue;
    if (values.length > 1) throw new InvalidRequestError(`Parameter ${name} is repeated`);
    fields[name] = values[0]!;
  }
  return fields;
}

export function parseCookies(cookieHeader: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  for (const part of (cookieHeader ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 1) continue;
    const name = part.slice(0, separator).trim();
    if (Object.hasOwn(cookies, name)) continue;
    try {
      cookies[name] = decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      // A cookie we did not set; ignore it.
    }
  }
  return cookies;
}
