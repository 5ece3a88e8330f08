import { isIP } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * The local platform's servers answer only requests meant for this machine. Each listens on
 * loopback, but a web page the developer opens elsewhere can still reach it: by DNS rebinding
 * (a name of the attacker's that resolves to 127.0.0.1, so the browser sends `Host:
 * evil.example` and lets the page read the answer), or, where a server answers CORS to anyone as
 * dynalite and s3rver do, directly. So a request is refused unless its `Host` names this machine
 * as rebinding cannot (`localhost` or an IP address, with or without port), and, on the servers
 * only SDKs and the platform itself call (DynamoDB, S3, SQS), unless any `Origin` it carries is
 * such a name too.
 */

export interface LocalRequestRules {
  /** The server's callers include web pages of other origins (the APIs, the identity provider). */
  readonly pagesOfAnyOrigin: boolean;
}

/** `localhost`, a name under it, or an IP address: names a rebinding attacker cannot point here. */
export function isLocalHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const address = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  return name === 'localhost' || name.endsWith('.localhost') || isIP(address) !== 0;
}

/** The host name of a `Host` header (`name[:port]`, `[v6]:port`); null when it is not one. */
function hostNameOf(host: string | undefined): string | null {
  if (!host) return null;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
}

/** Why the request is refused, or null when it may be answered. */
export function refusalOf(request: Pick<IncomingMessage, 'headers'>, rules: LocalRequestRules): string | null {
  const host = hostNameOf(request.headers.host);
  if (host === null || !isLocalHostName(host)) return 'This local server answers only requests addressed to localhost or an IP address.';
  const origin = request.headers.origin;
  if (origin !== undefined && !rules.pagesOfAnyOrigin) {
    let originHost: string | null;
    try {
      originHost = new URL(origin).hostname;
    } catch {
      originHost = null;
    }
    if (originHost === null || !isLocalHostName(originHost)) return 'This local server answers no web page of another origin.';
  }
  return null;
}

/**
 * Puts the rules in front of every request listener the server has now: call it once the
 * server's own listeners are attached (a library's server included).
 */
export function answerOnlyLocalRequests(server: Server, rules: LocalRequestRules): void {
  const listeners = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const refusal = refusalOf(request, rules);
    if (refusal === null) {
      for (const listener of listeners) listener.call(server, request, response);
      return;
    }
    request.resume();
    response.writeHead(403, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    response.end(JSON.stringify({ error: refusal }));
  });
}
