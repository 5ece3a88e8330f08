import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';
import { LOCAL_MAX_REQUEST_HEADER_BYTES, MAX_REQUEST_BODY_BYTES } from '../../functions/http/gateway-limits.ts';
import { withClockAt, withClockOffset } from '../../platform/clock.ts';
import {
  apiDefinitions,
  authorizerEntry,
  endpoints,
  fallbackEntry,
  versionedFamilies,
  type ApiName,
  type EndpointDefinition,
} from '../../platform/endpoints.ts';
import {
  binaryMediaTypes,
  corsPreflight,
  gatewayResponseHeaders,
  gatewayResponses,
  type GatewayResponseType,
} from '../gateway-responses.ts';
import { invoke } from './invocations.ts';
import { lambdaContext, LOCAL_ACCOUNT, LOCAL_REGION } from './queue.ts';

/**
 * A small API Gateway (REST, Lambda proxy) for the local platform: it routes by the same
 * endpoint table as the CDK stack, runs the same REQUEST authorizer, answers with the same
 * gateway responses, and calls the handler modules with the proxy events API Gateway would send.
 * Each call is one Lambda invocation with its own context, run as the runtime runs it
 * (invocations.ts), so requests served at the same time keep their log keys apart.
 */

type ProxyHandler = (event: APIGatewayProxyEvent, context: ReturnType<typeof lambdaContext>) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent, context: ReturnType<typeof lambdaContext>) => Promise<APIGatewayAuthorizerResult>;
export type ModuleLoader = (entry: string) => Promise<{ handler: unknown }>;

const STAGE = 'local';
/** API Gateway's integration timeout. */
const INTEGRATION_TIMEOUT_SECONDS = 29;

interface RouteMatch {
  resource: string;
  pathParameters: Record<string, string> | null;
  definition: EndpointDefinition | null;
}

/** API Gateway ignores a trailing slash: `/directions/v2/` is the resource `/directions/v2`. */
function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function matchTemplate(template: string, segments: readonly string[]): Record<string, string> | null {
  const want = template.split('/').filter(Boolean);
  if (want.length !== segments.length) return null;
  const parameters: Record<string, string> = Object.create(null);
  for (let index = 0; index < want.length; index++) {
    const segment = want[index]!;
    const actual = segments[index]!;
    if (segment.startsWith('{') && segment.endsWith('}')) parameters[segment.slice(1, -1)] = actual;
    else if (segment !== actual) return null;
  }
  return parameters;
}

/** A path segment that is not valid percent-encoded UTF-8 (`%ZZ`, `%E0%A4%A`): API Gateway refuses the request. */
export class MalformedPathError extends Error {
  constructor() {
    super('Malformed request path: invalid percent-encoding');
  }
}

/** The path's segments, each percent-decoded. */
function decodedSegments(path: string): string[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw new MalformedPathError();
      }
    });
}

const literalCount = (template: string) => template.split('/').filter((segment) => segment && !segment.startsWith('{')).length;

/** The endpoint (or fallback proxy) a path reaches; throws `MalformedPathError` for a path that does not decode. */
export function matchRoute(api: ApiName, rawPath: string): RouteMatch {
  const path = normalisePath(rawPath);
  const segments = decodedSegments(path);
  let best: RouteMatch | null = null;
  for (const definition of endpoints.filter((candidate) => candidate.api === api)) {
    for (const template of definition.paths) {
      const parameters = matchTemplate(template, segments);
      if (!parameters) continue;
      if (!best || literalCount(template) > literalCount(best.resource)) {
        best = { resource: template, pathParameters: Object.keys(parameters).length ? parameters : null, definition };
      }
    }
  }
  if (best) return best;
  const family = api === 'base' ? versionedFamilies.find((prefix) => path.startsWith(`${prefix}/`)) : undefined;
  const resource = family ? `${family}/{proxy+}` : '/{proxy+}';
  const proxy = family ? path.slice(family.length + 1) : path.slice(1);
  return { resource, pathParameters: Object.assign(Object.create(null) as Record<string, string>, { proxy }), definition: null };
}

function isBinary(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return binaryMediaTypes.some((pattern) => (pattern.endsWith('/*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern));
}

/**
 * Request headers and query parameters as API Gateway passes them: the last value of each name,
 * and every value in the multi-value maps. Names are the client's, so the maps have no prototype
 * (`__proto__`, `constructor` are names like any other).
 */
function valueMaps(entries: Iterable<readonly [string, string]>): { single: Record<string, string>; multi: Record<string, string[]>; count: number } {
  const single: Record<string, string> = Object.create(null);
  const multi: Record<string, string[]> = Object.create(null);
  let count = 0;
  for (const [name, value] of entries) {
    single[name] = value;
    (multi[name] ??= []).push(value);
    count++;
  }
  return { single, multi, count };
}

function* headerPairs(request: IncomingMessage): Generator<readonly [string, string]> {
  for (let index = 0; index < request.rawHeaders.length; index += 2) yield [request.rawHeaders[index]!, request.rawHeaders[index + 1]!];
}

function headerMaps(request: IncomingMessage) {
  const { single, multi } = valueMaps(headerPairs(request));
  return { headers: single, multiValueHeaders: multi };
}

function queryMaps(url: URL) {
  const { single, multi, count } = valueMaps(url.searchParams);
  return count ? { single, multi } : { single: null, multi: null };
}

/** The request target as a URL on this host; null when it is not one (API Gateway answers 400). */
function requestUrl(target: string | undefined): URL | null {
  try {
    // Origin-form (`/path?query`) is read against this host, so `//x/y` stays a path.
    return new URL(target?.startsWith('/') ? `http://localhost${target}` : (target ?? '/'), 'http://localhost');
  } catch {
    return null;
  }
}

export interface GatewayOptions {
  api: ApiName;
  load: ModuleLoader;
  /** Reports failures of the gateway itself (never request contents). */
  onError: (message: string, error: unknown) => void;
  /** Honour the test-only clock offset header (see LocalPlatformOptions.testClock). */
  testClock?: boolean;
}

/** The reason phrase and `{error}` of a request Node's HTTP parser refuses before the gateway sees it. */
function unparsedRequestAnswer(code: string | undefined): [number, string, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large', 'Request header fields too large'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout', 'Request timeout'];
  return [400, 'Bad Request', 'Malformed request'];
}

/**
 * Answers a request Node's HTTP parser refuses (headers over the limit, a request line or header
 * that is not HTTP) in the shape of the gateway's own answers, where Node would answer the same
 * status with no body: every refusal of the platform is `{error}`.
 */
function refuseUnparsedRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = unparsedRequestAnswer(error.code);
  const body = JSON.stringify({ error: message });
  const headers = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...gatewayResponseHeaders, Connection: 'close' };
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`);
}

/** The gateway's HTTP server: its limit on the request line and headers, and its answer to what is not HTTP. */
export function createGatewayServer(options: GatewayOptions): Server {
  const server = createServer({ maxHeaderSize: LOCAL_MAX_REQUEST_HEADER_BYTES }, createGateway(options));
  server.on('clientError', refuseUnparsedRequest);
  return server;
}

/** Seconds to move the clock for one request; only when the platform was started for tests. */
export const TEST_CLOCK_HEADER = 'x-spoke-test-clock-offset';
/** The instant (ISO 8601) the clock reads as one request starts; only when the platform was started for tests. */
export const TEST_CLOCK_AT_HEADER = 'x-spoke-test-clock-at';
/** Offsets further than this (ten years) are ignored: the clock would leave the dates a Date can hold. */
const MAX_TEST_CLOCK_OFFSET_SECONDS = 10 * 365 * 24 * 3600;
/** Instants outside these years are ignored, as departure times are (1970 to 2100). */
const TEST_CLOCK_AT_RANGE_MS = [Date.UTC(1970, 0, 1), Date.UTC(2100, 0, 1)] as const;

function send(response: ServerResponse, requestId: string, status: number, headers: Record<string, string>, body: string | Buffer): void {
  response.writeHead(status, { ...headers, 'x-amzn-RequestId': requestId });
  response.end(body);
}

/** One of API Gateway's own answers (lib/gateway-responses.ts), as the stack configures them. */
function gatewayResponse(
  response: ServerResponse,
  requestId: string,
  type: GatewayResponseType,
  /** `status`: the one API Gateway chooses itself for a default response (413 for a body too long). */
  values: { authorizerError?: string; message?: string; status?: number } = {},
): void {
  const definition = gatewayResponses[type];
  const body = definition.template
    .replace('$context.authorizer.error', values.authorizerError ?? '')
    .replace('$context.error.messageString', values.message ?? '');
  send(response, requestId, values.status ?? definition.status, { 'Content-Type': 'application/json', ...gatewayResponseHeaders }, body);
}

/** The request's body, or null once a body longer than API Gateway takes has been answered 413. */
async function readBody(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BODY_BYTES) {
      gatewayResponse(response, requestId, 'DEFAULT_4XX', { message: 'Request too long', status: 413 });
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function answerPreflight(response: ServerResponse, requestId: string): void {
  send(response, requestId, 204, {
    'Access-Control-Allow-Origin': corsPreflight.allowOrigins.join(','),
    'Access-Control-Allow-Methods': corsPreflight.allowMethods.join(','),
    'Access-Control-Allow-Headers': corsPreflight.allowHeaders.join(','),
    'Access-Control-Max-Age': String(corsPreflight.maxAgeSeconds),
  }, '');
}

/** What every proxy event of the request shares with its authorizer event. */
interface RequestParts {
  readonly api: ApiName;
  readonly route: RouteMatch;
  readonly url: URL;
  readonly method: string;
  readonly headers: ReturnType<typeof headerMaps>;
  readonly query: ReturnType<typeof queryMaps>;
  readonly requestContext: APIGatewayProxyEvent['requestContext'];
}

function proxyRequestContext(request: IncomingMessage, api: ApiName, url: URL, method: string, route: RouteMatch, requestId: string): APIGatewayProxyEvent['requestContext'] {
  return {
    accountId: LOCAL_ACCOUNT,
    apiId: `local-${api}`,
    authorizer: null as Record<string, unknown> | null,
    httpMethod: method,
    path: `/${STAGE}${url.pathname}`,
    protocol: `HTTP/${request.httpVersion}`,
    requestId,
    requestTimeEpoch: Date.now(),
    resourceId: route.resource,
    resourcePath: route.resource,
    stage: STAGE,
    identity: {
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      userAgent: request.headers['user-agent'] ?? null,
    },
  } as unknown as APIGatewayProxyEvent['requestContext'];
}

/**
 * Runs the REQUEST authorizer as API Gateway does: true with its context on the request's, or
 * false once the refusal has been answered.
 */
async function authorize(parts: RequestParts, authorizer: AuthorizerHandler, response: ServerResponse, onError: GatewayOptions['onError']): Promise<boolean> {
  const { api, route, url, method, headers, query, requestContext } = parts;
  const requestId = requestContext.requestId;
  const methodArn = `arn:aws:execute-api:${LOCAL_REGION}:${LOCAL_ACCOUNT}:local-${api}/${STAGE}/${method}${route.resource}`;
  const authorizerContext = lambdaContext('authorizer', INTEGRATION_TIMEOUT_SECONDS);
  const authorizerEvent = {
    type: 'REQUEST',
    methodArn,
    resource: route.resource,
    path: url.pathname,
    httpMethod: method,
    headers: headers.headers,
    multiValueHeaders: headers.multiValueHeaders,
    pathParameters: route.pathParameters,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    stageVariables: null,
    requestContext,
  } as unknown as APIGatewayRequestAuthorizerEvent;
  let result: APIGatewayAuthorizerResult;
  try {
    result = await invoke(authorizerContext, () => authorizer(authorizerEvent, authorizerContext));
  } catch (error) {
    if ((error as Error).message === 'Unauthorized') gatewayResponse(response, requestId, 'UNAUTHORIZED');
    else {
      onError('authorizer failed', error);
      gatewayResponse(response, requestId, 'DEFAULT_5XX');
    }
    return false;
  }
  const effect = result.policyDocument.Statement.find(() => true) as { Effect?: string } | undefined;
  if (effect?.Effect !== 'Allow') {
    gatewayResponse(response, requestId, 'ACCESS_DENIED', { authorizerError: String(result.context?.error ?? '') });
    return false;
  }
  if (apiDefinitions[api].meteredByUsagePlans && !result.usageIdentifierKey) {
    // The method requires an API key and the authorizer supplied none: API Gateway's 403.
    gatewayResponse(response, requestId, 'DEFAULT_4XX', { message: 'Forbidden' });
    return false;
  }
  (requestContext as unknown as { authorizer: Record<string, unknown> }).authorizer = {
    ...Object.fromEntries(Object.entries(result.context ?? {}).map(([key, value]) => [key, String(value)])),
    principalId: result.principalId,
  };
  return true;
}

/** Calls the endpoint's function with the proxy event within the integration timeout, and answers what it returns. */
async function integrate(parts: RequestParts, raw: Buffer, binary: boolean, handler: ProxyHandler, response: ServerResponse): Promise<void> {
  const { route, url, method, headers, query, requestContext } = parts;
  const event: APIGatewayProxyEvent = {
    resource: route.resource,
    path: url.pathname,
    httpMethod: method,
    headers: headers.headers,
    multiValueHeaders: headers.multiValueHeaders,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters: route.pathParameters,
    stageVariables: null,
    requestContext,
    body: raw.length ? raw.toString(binary ? 'base64' : 'utf8') : null,
    isBase64Encoded: binary,
  };
  const timeoutSeconds = Math.min(route.definition?.timeoutSeconds ?? INTEGRATION_TIMEOUT_SECONDS, INTEGRATION_TIMEOUT_SECONDS);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutSeconds * 1000);
  });
  const context = lambdaContext(route.definition?.id ?? 'fallback', timeoutSeconds);
  const result = await Promise.race([invoke(context, () => handler(event, context)), timedOut]);
  clearTimeout(timer);
  if (result === 'timeout') {
    return send(response, requestContext.requestId, 504, { 'Content-Type': 'application/json' }, JSON.stringify({ error: 'Endpoint request timed out' }));
  }
  const body = result.body ?? '';
  send(
    response,
    requestContext.requestId,
    result.statusCode,
    Object.fromEntries(Object.entries(result.headers ?? {}).map(([key, value]) => [key, String(value)])),
    result.isBase64Encoded ? Buffer.from(body, 'base64') : body,
  );
}

export function createGateway({ api, load, onError, testClock = false }: GatewayOptions) {
  const handlers = new Map<string, Promise<unknown>>();
  const handlerFor = <T>(entry: string): Promise<T> => {
    if (!handlers.has(entry)) handlers.set(entry, load(entry).then((module) => module.handler));
    return handlers.get(entry)! as Promise<T>;
  };

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    try {
      const raw = await readBody(request, response, requestId);
      if (!raw) return;
      const url = requestUrl(request.url);
      if (!url) return gatewayResponse(response, requestId, 'DEFAULT_4XX', { message: 'Malformed request target' });
      const method = (request.method ?? 'GET').toUpperCase();
      let route: RouteMatch;
      try {
        route = matchRoute(api, url.pathname);
      } catch (error) {
        if (!(error instanceof MalformedPathError)) throw error;
        return gatewayResponse(response, requestId, 'DEFAULT_4XX', { message: error.message });
      }
      if (method === 'OPTIONS') return answerPreflight(response, requestId);

      const requestContext = proxyRequestContext(request, api, url, method, route, requestId);
      const parts: RequestParts = { api, route, url, method, headers: headerMaps(request), query: queryMaps(url), requestContext };
      if (route.definition && route.definition.auth !== 'public') {
        if (!(await authorize(parts, await handlerFor<AuthorizerHandler>(authorizerEntry), response, onError))) return;
      }
      const binary = isBinary(request.headers['content-type']);
      await integrate(parts, raw, binary, await handlerFor<ProxyHandler>(route.definition?.entry ?? fallbackEntry), response);
    } catch (error) {
      // A function that throws past its own error handling is API Gateway's 502.
      onError('integration failed', error);
      if (!response.headersSent) {
        send(response, requestId, 502, { 'Content-Type': 'application/json' }, JSON.stringify({ error: 'Internal server error' }));
      }
    }
  };

  return (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!testClock) return serve(request, response);
    const at = request.headers[TEST_CLOCK_AT_HEADER];
    const instant = typeof at === 'string' ? Date.parse(at) : NaN;
    if (instant >= TEST_CLOCK_AT_RANGE_MS[0] && instant < TEST_CLOCK_AT_RANGE_MS[1]) return withClockAt(instant, () => serve(request, response));
    const offset = Number(request.headers[TEST_CLOCK_HEADER]);
    return Number.isFinite(offset) && Math.abs(offset) <= MAX_TEST_CLOCK_OFFSET_SECONDS ? withClockOffset(offset * 1000, () => serve(request, response)) : serve(request, response);
  };
}
