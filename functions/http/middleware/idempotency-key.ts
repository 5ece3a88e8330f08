import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Principal } from '../../auth/principal.ts';
import type { HttpMethod } from '../../../platform/endpoints.ts';
import type { RepeatableRequest } from '../../../platform/idempotency.ts';
import { InvalidRequestError } from '../errors.ts';
import { header } from '../forms.ts';
import { appliesTo } from './allow-methods.ts';
import { httpStateOf, type HttpMiddleware } from './http-state.ts';

/**
 * Reads the `Idempotency-Key` request header (IETF httpapi idempotency-key draft) into the
 * request state as a `RepeatableRequest`: the key, the caller it belongs to, and a fingerprint of
 * the body. The draft makes the value a structured-field string (`"8e03978e-..."`); the bare form
 * (`8e03978e-...`) is read as the same key. A key that breaks the rule answers 400; without the
 * header the request is an ordinary one. Runs after validation and before rate limiting, so a
 * refused key costs nothing.
 */

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** What a key may hold: UUIDs, ULIDs, base64 and base64url, hex, timestamps. */
const KEY = `[A-Za-z0-9\\-_.:~+/=]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}`;
/** A header value the key is read from: the draft's structured-field string, or the key bare (the OpenAPI documents show this rule). */
export const IDEMPOTENCY_KEY_VALUE = new RegExp(`^(?:"(${KEY})"|(${KEY}))$`);

const INVALID_KEY = `${IDEMPOTENCY_KEY_HEADER}: must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters of A-Z, a-z, 0-9 and - _ . : ~ + / =, optionally in double quotes (a UUID is best)`;

/** Who a key belongs to: the API key, the rider, or the app acting for the rider. */
function callerOf(principal: Principal): string {
  switch (principal.kind) {
    case 'apikey':
      return `key:${principal.keyId}`;
    case 'rider':
      return `rider:${principal.sub}`;
    case 'oauth':
      return `oauth:${principal.clientId}:${principal.sub}`;
  }
}

/** The header's values, all of them: API Gateway's single-value map keeps only the last. */
function sentValues(event: APIGatewayProxyEvent): string[] {
  const wanted = IDEMPOTENCY_KEY_HEADER.toLowerCase();
  const values = Object.entries(event.multiValueHeaders ?? {}).flatMap(([name, list]) => (name.toLowerCase() === wanted ? (list ?? []) : []));
  const single = header(event.headers, wanted);
  return values.length ? values : single === undefined ? [] : [single];
}

/** The key a header value names, or null when it is not a valid one. */
export function parseIdempotencyKey(value: string): string | null {
  const match = IDEMPOTENCY_KEY_VALUE.exec(value.trim());
  return match ? (match[1] ?? match[2])! : null;
}

function bodyFingerprint(event: APIGatewayProxyEvent): string {
  const bytes = event.body === null || event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  return createHash('sha256').update(bytes).digest('hex');
}

export interface IdempotencyKeyOptions {
  /** Only requests with these methods take a key (a collection's POST, not its GET). */
  methods: readonly HttpMethod[];
}

export function idempotencyKey(options: IdempotencyKeyOptions): HttpMiddleware {
  return {
    before: (request) => {
      if (!appliesTo(options.methods, request.event.httpMethod)) return;
      const values = sentValues(request.event);
      if (values.length === 0) return;
      if (values.length > 1) throw new InvalidRequestError(`${IDEMPOTENCY_KEY_HEADER}: send it once`);
      const key = parseIdempotencyKey(values[0]!);
      if (key === null) throw new InvalidRequestError(INVALID_KEY);
      const http = httpStateOf(request);
      if (!http.principal) throw new Error('Idempotency-Key read without an authorizer principal');
      const repeatable: RepeatableRequest = { caller: callerOf(http.principal), key, fingerprint: bodyFingerprint(request.event) };
      http.repeatable = repeatable;
    },
  };
}
