import { plans, type Plan, type RateLimits } from '../../platform/plans.ts';

/**
 * Who is calling, as the request authorizer established it. The authorizer hands this to API
 * Gateway as a flat context map (strings and numbers only) and every handler reads it back.
 * Each kind has its own rate bucket.
 */

export interface ApiKeyPrincipal {
  kind: 'apikey';
  keyId: string;
  plan: Plan;
  /** Partner keys attribute reports to this slug (spec 4.4); null for other plans. */
  source: string | null;
  limits: RateLimits;
  /** Counters are kept per bucket; one per key. */
  rateBucket: string;
}

/** A third-party app acting for a signed-in rider with an OAuth access token (spec 5.5). */
export interface OAuthPrincipal {
  kind: 'oauth';
  /** The rider: their identity-provider user id. A report filed this way is the rider's. */
  sub: string;
  /** The app the request is attributed to. */
  clientId: string;
  scope: string;
  /** The grant (refresh-token family) the token was issued from; revoking it stops the token. */
  grantId: string;
  limits: RateLimits;
  /** `oauth:<client_id>:<sub>`: the rider's own bucket for that app. */
  rateBucket: string;
}

/**
 * A rider signed in to the platform's own apps with an identity-provider token: on the rider
 * endpoints (spec 4.6), and on the routing and report endpoints in place of an API key (spec 5.1).
 */
export interface RiderPrincipal {
  kind: 'rider';
  sub: string;
  /** In the identity provider's `admin` group (`cognito:groups`): sees full profiles in search (spec 5.6). */
  admin: boolean;
  limits: RateLimits;
  /** `rider:<sub>`. */
  rateBucket: string;
}

export type Principal = ApiKeyPrincipal | OAuthPrincipal | RiderPrincipal;

/**
 * Per-rider limits for requests made with an OAuth access token, per app (spec 8 leaves the
 * values open). They sit well above what one person's app needs for routing and reports, and
 * well under a partner key, so one rider's token cannot stand in for a key.
 */
export const OAUTH_RIDER_LIMITS: RateLimits = { perMinute: 30, perHour: 600, perDay: 5_000 };

/**
 * Limits of a rider's own session, one bucket for everything the rider does: the rider endpoints
 * and, without an API key, routing and reports (spec 5.1, 8: "higher rate limits" than the free
 * plan's 10/100/1,000). Directions still cost one token per coordinate pair.
 */
export const RIDER_SESSION_LIMITS: RateLimits = { perMinute: 60, perHour: 1_200, perDay: 10_000 };

export function oauthPrincipal(claims: { sub: string; clientId: string; scope: string; grantId: string }): OAuthPrincipal {
  return { kind: 'oauth', ...claims, limits: OAUTH_RIDER_LIMITS, rateBucket: `oauth:${claims.clientId}:${claims.sub}` };
}

export function riderPrincipal(sub: string, options: { admin?: boolean } = {}): RiderPrincipal {
  return { kind: 'rider', sub, admin: options.admin ?? false, limits: RIDER_SESSION_LIMITS, rateBucket: `rider:${sub}` };
}

/**
 * What a log line may say about the caller: the key or the app, never the rider (their id is
 * personal data).
 */
export function principalLogLabel(principal: Principal): string {
  switch (principal.kind) {
    case 'apikey':
      return principal.rateBucket;
    case 'oauth':
      return `oauth:${principal.clientId}`;
    case 'rider':
      return 'rider';
  }
}

export type AuthorizerContext = Record<string, string | number | boolean>;

export function toAuthorizerContext(principal: Principal): AuthorizerContext {
  const limits = { perMinute: principal.limits.perMinute, perHour: principal.limits.perHour, perDay: principal.limits.perDay };
  switch (principal.kind) {
    case 'apikey':
      return {
        kind: principal.kind,
        keyId: principal.keyId,
        plan: principal.plan,
        source: principal.source ?? '',
        ...limits,
        rateBucket: principal.rateBucket,
      };
    case 'oauth':
      return {
        kind: principal.kind,
        sub: principal.sub,
        clientId: principal.clientId,
        scope: principal.scope,
        grantId: principal.grantId,
        ...limits,
        rateBucket: principal.rateBucket,
      };
    case 'rider':
      return { kind: principal.kind, sub: principal.sub, admin: principal.admin ? 'true' : 'false', ...limits, rateBucket: principal.rateBucket };
  }
}

/** API Gateway delivers context values as strings in the proxy event; numbers are parsed back. */
export function fromAuthorizerContext(context: Record<string, unknown> | null | undefined): Principal | null {
  if (!context) return null;
  const text = (name: string) => (typeof context[name] === 'string' ? (context[name] as string) : String(context[name] ?? ''));
  const count = (name: string) => Number(context[name]);
  const limits = { perMinute: count('perMinute'), perHour: count('perHour'), perDay: count('perDay') };
  switch (context.kind) {
    case 'apikey': {
      const plan = text('plan') as Plan;
      if (!plans.includes(plan)) return null;
      return { kind: 'apikey', keyId: text('keyId'), plan, source: text('source') || null, limits, rateBucket: text('rateBucket') };
    }
    case 'oauth':
      return {
        kind: 'oauth',
        sub: text('sub'),
        clientId: text('clientId'),
        scope: text('scope'),
        grantId: text('grantId'),
        limits,
        rateBucket: text('rateBucket'),
      };
    case 'rider':
      return { kind: 'rider', sub: text('sub'), admin: text('admin') === 'true', limits, rateBucket: text('rateBucket') };
    default:
      return null;
  }
}
