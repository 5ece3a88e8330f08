/**
 * The plans customer keys are sold on (spec 8), and the limits a key is held to. The functions
 * enforce the exact limits (functions/ratelimit/); the stack gives each plan an API Gateway usage
 * plan as the coarse outer guard (lib/usage-plans.ts).
 */

export const plans = ['free', 'enterprise', 'partner'] as const;
export type Plan = (typeof plans)[number];

export interface RateLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
}

/** Free-plan limits are fixed by the spec; enterprise and partner limits are agreed per key. */
export const FREE_PLAN_LIMITS: RateLimits = { perMinute: 10, perHour: 100, perDay: 1000 };
