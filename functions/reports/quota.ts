import { createHash } from 'node:crypto';
import { presentedCredential } from '../auth/credentials.ts';
import type { Principal, RateLimits } from '../auth/principal.ts';
import type { RateBucket } from '../ratelimit/limiter.ts';

/**
 * Spec 8: 60 reports per hour per user session token. A rider's own session gets a bucket of its
 * own for submissions, keyed by a SHA-256 hash of the session's token (never the token); an app
 * acting for a rider (OAuth) gets one per rider and app, because an app refreshes its access
 * token every hour and a per-token count would reset with it. These buckets come on top of the
 * caller's general one; API keys are held to their plan's limits only.
 */

export const REPORTS_PER_SESSION_PER_HOUR = 60;

/** The hour is the rule; the minute and day windows never bind before it does. */
export const REPORT_SESSION_LIMITS: RateLimits = {
  perMinute: REPORTS_PER_SESSION_PER_HOUR,
  perHour: REPORTS_PER_SESSION_PER_HOUR,
  perDay: REPORTS_PER_SESSION_PER_HOUR * 24,
};

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export function reportSubmissionBuckets(principal: Principal, headers: Record<string, string | undefined>): RateBucket[] {
  switch (principal.kind) {
    case 'apikey':
      return [];
    case 'rider': {
      const credential = presentedCredential(headers);
      // The authorizer admitted a rider only for a bearer token; anything else is a wiring fault.
      if (credential?.kind !== 'bearer') throw new Error('A rider session reached reports without its bearer token');
      return [{ id: `reports:session:${sha256(credential.token)}`, limits: REPORT_SESSION_LIMITS }];
    }
    case 'oauth':
      return [{ id: `reports:app-rider:${sha256(`${principal.clientId}\n${principal.sub}`)}`, limits: REPORT_SESSION_LIMITS }];
  }
}
