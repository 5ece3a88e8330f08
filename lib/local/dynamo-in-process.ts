import { EventEmitter } from 'node:events';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { RequestListener } from './dynamo-transactions.ts';

/**
 * The DynamoDB client's transport in the local platform's own thread: each request the SDK has
 * built and signed goes to the local DynamoDB endpoint's request listener (the transaction proxy
 * in front of dynalite, dynamo-transactions.ts) as a call in this process, and its answer comes
 * back as the SDK's HTTP response, instead of over a loopback socket from this process to itself.
 * The SDK's middleware, signing, (un)marshalling and retries are unchanged; only the socket, the
 * HTTP framing and the event-loop turns they cost are gone (on the load test's path the client's
 * one call a request, the rate limiter's update, spent about as much in Node's HTTP on both sides
 * as in dynalite itself: docs/benchmarks.md, "Load: CPU per request around the planner").
 */

/** The part of the SDK's HTTP request this transport reads (`@smithy/types` `HttpRequest`). */
interface SdkHttpRequest {
  method: string;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** The SDK's HTTP response as its deserializers read it (`@smithy/types` `HttpResponse`). */
interface SdkHttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

function requestTarget({ path, query }: SdkHttpRequest): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, one ?? '');
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** What a listener writes, kept: status, headers (lower-cased, as Node's client gives them) and body. */
class ResponseRecorder extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  private readonly headers: Record<string, string> = {};

  constructor(private readonly done: (response: SdkHttpResponse) => void) {
    super();
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.headers[name.toLowerCase()];
  }

  writeHead(statusCode: number, headers: OutgoingHttpHeaders = {}): this {
    this.statusCode = statusCode;
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  end(body?: string | Uint8Array): this {
    this.headersSent = true;
    const bytes = body === undefined ? new Uint8Array() : typeof body === 'string' ? Buffer.from(body) : body;
    this.done({ statusCode: this.statusCode, headers: this.headers, body: bytes });
    this.emit('finish');
    this.emit('close');
    return this;
  }
}

/** An SDK request handler (`requestHandler` of `DynamoDBClient`) that calls `listener` in this process. */
export function inProcessDynamoTransport(listener: RequestListener) {
  return {
    metadata: { handlerProtocol: 'http/1.1' },
    handle(request: SdkHttpRequest): Promise<{ response: SdkHttpResponse }> {
      return new Promise((resolve) => {
        // The SDK's JSON body is a Uint8Array whose valueOf answers a string (and warns once):
        // Buffer.from(array) would call it, so the bytes are viewed through the array's buffer.
        const raw: unknown = request.body;
        const body = typeof raw === 'string' ? Buffer.from(raw) : raw instanceof Uint8Array ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength) : Buffer.alloc(0);
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
        const incoming = Object.assign(Readable.from(body.length ? [body] : []), { headers, method: request.method, url: requestTarget(request) });
        const response = new ResponseRecorder((answer) => resolve({ response: answer }));
        listener(incoming as unknown as IncomingMessage, response as unknown as ServerResponse);
      });
    },
    updateHttpClientConfig(): void {},
    httpHandlerConfigs(): Record<string, never> {
      return {};
    },
    destroy(): void {},
  };
}
