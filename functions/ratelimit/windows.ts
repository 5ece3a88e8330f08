import type { RateLimits } from '../../platform/plans.ts';

/**
 * Fixed-window token accounting for one bucket, as pure arithmetic. A request costs one or more
 * tokens and is admitted only if every window (minute, hour, day) can pay all of them.
 */

export const windowKinds = ['minute', 'hour', 'day'] as const;
export type WindowKind = (typeof windowKinds)[number];

const windowSeconds: Record<WindowKind, number> = { minute: 60, hour: 3_600, day: 86_400 };
const limitOf = (limits: RateLimits, kind: WindowKind): number =>
  kind === 'minute' ? limits.perMinute : kind === 'hour' ? limits.perHour : limits.perDay;

export interface WindowUsage {
  /** Unix seconds at which the window opened. */
  start: number;
  used: number;
}

export type BucketUsage = Record<WindowKind, WindowUsage>;

/** What `X-RateLimit-*` report: the window with the fewest tokens left. */
export interface RateLimitReport {
  limit: number;
  remaining: number;
  /** Unix seconds at which that window resets. */
  reset: number;
}

export interface RateDecision {
  allowed: boolean;
  usage: BucketUsage;
  report: RateLimitReport;
  /** Seconds until every window that refused has reset; set when refused. */
  retryAfterSeconds?: number;
  /** Set when the request costs more than a window can ever hold. */
  exceedsWindow?: { kind: WindowKind; limit: number };
}

export function currentUsage(stored: Partial<BucketUsage> | undefined, nowSeconds: number): BucketUsage {
  const usage = {} as BucketUsage;
  for (const kind of windowKinds) {
    const start = Math.floor(nowSeconds / windowSeconds[kind]) * windowSeconds[kind];
    const previous = stored?.[kind];
    usage[kind] = { start, used: previous && previous.start === start ? previous.used : 0 };
  }
  return usage;
}

export function decide(
  stored: Partial<BucketUsage> | undefined,
  limits: RateLimits,
  cost: number,
  nowSeconds: number,
): RateDecision {
  const usage = currentUsage(stored, nowSeconds);
  const refusing = windowKinds.filter((kind) => usage[kind].used + cost > limitOf(limits, kind));
  const allowed = refusing.length === 0;
  if (allowed) for (const kind of windowKinds) usage[kind].used += cost;

  const decision: RateDecision = { allowed, usage, report: report(usage, limits) };
  if (!allowed) {
    const resets = refusing.map((kind) => usage[kind].start + windowSeconds[kind] - nowSeconds);
    decision.retryAfterSeconds = Math.max(1, Math.ceil(Math.max(...resets)));
    const tooBig = windowKinds.find((kind) => cost > limitOf(limits, kind));
    if (tooBig) decision.exceedsWindow = { kind: tooBig, limit: limitOf(limits, tooBig) };
  }
  return decision;
}

function report(usage: BucketUsage, limits: RateLimits): RateLimitReport {
  let tightest: RateLimitReport | undefined;
  for (const kind of windowKinds) {
    const limit = limitOf(limits, kind);
    const candidate = {
      limit,
      remaining: Math.max(0, limit - usage[kind].used),
      reset: usage[kind].start + windowSeconds[kind],
    };
    if (!tightest || candidate.remaining < tightest.remaining) tightest = candidate;
  }
  return tightest!;
}

/** Seconds after which a bucket's item may be deleted: once its day window is over. */
export function expiryOf(usage: BucketUsage): number {
  return usage.day.start + windowSeconds.day + windowSeconds.hour;
}
