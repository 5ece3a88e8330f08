import type { RateLimits } from '../../platform/plans.ts';
import type { Principal } from '../auth/principal.ts';
import type { RateScope } from '../ratelimit/limiter.ts';

/**
 * Multi-modal's own, stricter rate limit (spec 8: "multi-modal has a stricter limit than
 * directions"). A multi-modal request costs one token per hop (spec 4.2 rule 6) and pays it twice
 * in one conditional update (functions/ratelimit/limiter.ts): from the caller's general windows,
 * which directions and every other endpoint share, and from multi-modal's own windows, which hold
 * half of the caller's limit in each window. A free key may so make 10 routing requests a minute,
 * at most 5 of them multi-modal; whoever has higher limits (a partner or enterprise key, a rider's
 * own session, an app acting for a rider) gets a proportionally higher multi-modal limit.
 */

export const MULTI_MODAL_SCOPE = 'multi-modal';
/** The share of each of the caller's windows that multi-modal may use. */
export const MULTI_MODAL_SHARE = 0.5;

export function multiModalLimits(limits: RateLimits): RateLimits {
  const share = (value: number) => Math.max(1, Math.floor(value * MULTI_MODAL_SHARE));
  return { perMinute: share(limits.perMinute), perHour: share(limits.perHour), perDay: share(limits.perDay) };
}

export const multiModalScope = (principal: Principal): RateScope => ({ scope: MULTI_MODAL_SCOPE, limits: multiModalLimits(principal.limits) });
