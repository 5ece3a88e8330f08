/**
 * Who is calling, as the request authorizer established it. The authorizer hands this to API
 * Gateway as a flat context map (strings and numbers only) and every handler reads it back.
 * Rider sessions and OAuth access tokens become further `kind`s with their own rate bucket.
 */

export const plans = ['free', 'enterprise', 'partner'] as const;
export type Plan = (typeof plans)[number];

export interface RateLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
}

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

export type Principal = ApiKeyPrincipal;

export type AuthorizerContext = Record<string, string | number | boolean>;

export function toAuthorizerContext(principal: Principal): AuthorizerContext {
  return {
    kind: principal.kind,
    keyId: principal.keyId,
    plan: principal.plan,
    source: principal.source ?? '',
    perMinute: principal.limits.perMinute,
    perHour: principal.limits.perHour,
    perDay: principal.limits.perDay,
    rateBucket: principal.rateBucket,
  };
}

/** API Gateway delivers context values as strings in the proxy event; numbers are parsed back. */
export function fromAuthorizerContext(context: Record<string, unknown> | null | undefined): Principal | null {
  if (!context || context.kind !== 'apikey') return null;
  const text = (name: string) => (typeof context[name] === 'string' ? (context[name] as string) : String(context[name] ?? ''));
  const count = (name: string) => Number(context[name]);
  const plan = text('plan') as Plan;
  if (!plans.includes(plan)) return null;
  return {
    kind: 'apikey',
    keyId: text('keyId'),
    plan,
    source: text('source') || null,
    limits: { perMinute: count('perMinute'), perHour: count('perHour'), perDay: count('perDay') },
    rateBucket: text('rateBucket'),
  };
}
