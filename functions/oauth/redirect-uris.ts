/**
 * Redirect URI rules (spec 5.5, RFC 9700 2.1, RFC 8252). Checked when an app is registered or its
 * URIs change; at authorization time a requested URI must equal a registered one character for
 * character, so these rules are all that stands between a code and an attacker's address.
 *
 * - Web apps: `https://` with a host; plain `http://` only on the loopback interface with an
 *   explicit port (`http://localhost:<port>/…`, RFC 8252 7.3), for development.
 * - Mobile apps: an `https://` universal/app link, or a private-use scheme in reverse-domain form
 *   (`com.example.app:/callback`, RFC 8252 7.1). Requiring a dot in the scheme rules out
 *   `javascript:`, `data:`, `file:` and the other schemes a browser would act on itself.
 * - No wildcards, patterns, fragments or user info; the URI must be written in its canonical form
 *   (what a browser would send back), so that exact matching means what it says.
 */

const MAX_LENGTH = 2_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+$/;
/** Schemes with a dot that browsers or platforms still treat specially. */
const REFUSED_SCHEMES = new Set(['http', 'https', 'javascript', 'data', 'file', 'vbscript', 'blob', 'about', 'ftp', 'ws', 'wss']);

export class RedirectUriError extends Error {
  constructor(uri: string, reason: string) {
    super(`Redirect URI ${JSON.stringify(uri)} ${reason}`);
    this.name = 'RedirectUriError';
  }
}

export function checkRedirectUri(uri: string): void {
  const refuse = (reason: string): never => {
    throw new RedirectUriError(uri, reason);
  };
  if (uri.length === 0 || uri.length > MAX_LENGTH) refuse(`must be 1 to ${MAX_LENGTH} characters`);
  if (/[\s*]/.test(uri)) refuse('must not contain spaces or wildcards (*); register every URI in full');
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return refuse('is not an absolute URI');
  }
  if (parsed.hash || uri.includes('#')) refuse('must not contain a fragment (RFC 6749 3.1.2)');
  if (parsed.username || parsed.password) refuse('must not contain user info');
  const scheme = parsed.protocol.slice(0, -1);
  if (scheme === 'https') {
    if (!parsed.hostname) refuse('needs a host');
  } else if (scheme === 'http') {
    if (!LOOPBACK_HOSTS.has(parsed.hostname)) {
      refuse('uses http, which is allowed only for http://localhost:<port>/… during development; use https');
    }
    if (!parsed.port) refuse('on localhost needs an explicit port (http://localhost:<port>/…)');
  } else if (REFUSED_SCHEMES.has(scheme) || !PRIVATE_USE_SCHEME.test(scheme)) {
    refuse('must use https, http://localhost:<port>, or an app scheme in reverse-domain form such as com.example.app:/callback');
  }
  if (parsed.href !== uri) refuse(`is not in canonical form; register ${JSON.stringify(parsed.href)} instead`);
}

/** The registered URI the request names, compared exactly (spec 5.5: scheme, host, port, path). */
export function registeredRedirectUri(registered: readonly string[], requested: string): string | null {
  return registered.find((candidate) => candidate === requested) ?? null;
}

/** `redirect_uri` with the response parameters added to its query, keeping any query it has. */
export function redirectWith(redirectUri: string, parameters: Record<string, string>): string {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) target.searchParams.append(name, value);
  return target.href;
}
