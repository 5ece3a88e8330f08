import { createHash } from 'node:crypto';
import { presentedCredential } from '../auth/credentials.ts';
import type { RateLimits } from '../../platform/plans.ts';
import type { Principal } from '../auth/principal.ts';
import type { RateScope } from '../ratelimit/limiter.ts';

/**
 * Spec 8: 60 reports per hour per user session token. The allowance is a set of windows of its
 * own in the caller's rate item, paid in the same conditional update as the caller's general
 * limit (functions/ratelimit/limiter.ts), so a report refused by either takes nothing from both.
 * A rider's own session gets windows per session, named by a SHA-256 hash of the session's token
 * (never the token); an app acting for a rider already has an item per rider and app, and one set
 * of windows there, because an app refreshes its access token every hour and a per-token count
 * would reset with it. API keys are held to their plan's limits only.
 */

export const REPORTS_PER_SESSION_PER_HOUR = 60;

/** The hour is the rule; the minute and day windows never bind before it does. */
export const REPORT_SESSION_LIMITS: RateLimits = {
  perMinute: REPORTS_PER_SESSION_PER_HOUR,
  perHour: REPORTS_PER_SESSION_PER_HOUR,
  perDay: REPORTS_PER_SESSION_PER_HOUR * 24,
};

/** 128 bits of the token's hash: enough to keep sessions apart, short enough for attribute names. */
const sessionTag = (token: string): string => createHash('sha256').update(token).digest('hex').slice(0, 32);

export function reportSubmissionScope(principal: Principal, headers: Record<string, string | undefined>): RateScope | null {
  switch (principal.kind) {
    case 'apikey':
      return null;
    case 'rider': {
      const credential = presentedCredential(headers);
      // The authorizer admitted a rider only for a bearer token; anything else is a wiring fault.
      if (credential?.kind !== 'bearer') throw new Error('A rider session reached reports without its bearer token');
      return { scope: `reports-${sessionTag(credential.token)}`, limits: REPORT_SESSION_LIMITS };
    }
    case 'oauth':
      return { scope: 'reports', limits: REPORT_SESSION_LIMITS };
  }
}
