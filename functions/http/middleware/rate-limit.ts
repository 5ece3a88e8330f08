import type { Principal } from '../../auth/principal.ts';
import { logger } from '../../../platform/logger.ts';
import { recordMetric } from '../../../platform/metrics.ts';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { consumeTokens, peekTokens, type RateScope } from '../../ratelimit/limiter.ts';
import { nowMs } from '../../../platform/clock.ts';
import type { RateDecision } from '../../ratelimit/windows.ts';
import { httpErrorOf, rateLimitExceeded } from '../errors.ts';
import { httpStateOf, type HttpMiddleware, type HttpState } from './http-state.ts';

function rateHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.report.limit),
    'X-RateLimit-Remaining': String(decision.report.remaining),
    'X-RateLimit-Reset': String(decision.report.reset),
  };
}

/** The usage plan a refused caller is on: an API key's own, else what kind of caller it is (every app and rider session shares one). */
const rateLimitPlan = (principal: Principal): string => (principal.kind === 'apikey' ? principal.plan : principal.kind);

/**
 * Charges the caller's bucket `cost` tokens, all or none (spec 8), and reports the tightest
 * window in `X-RateLimit-*`. Requests refused before this point (method, validation, admission)
 * are not charged but still carry the headers; a fault is answered without them. An endpoint with
 * a limit of its own (`scope`: multi-modal's share, a rider session's reports) charges those
 * windows too, in the same conditional update, so a refusal by either takes nothing from both;
 * the headers report the tighter of the two.
 */
export function rateLimit(cost: (http: HttpState) => number, scope?: (http: HttpState, event: APIGatewayProxyEvent) => RateScope | null): HttpMiddleware {
  return {
    before: async (request) => {
      const http = httpStateOf(request);
      if (!http.principal) throw new Error('Credentialed endpoint reached without an authorizer principal');
      const tokens = cost(http);
      const decision = await consumeTokens(http.principal.rateBucket, http.principal.limits, tokens, nowMs, scope?.(http, request.event) ?? null);
      http.rateDecision = decision;
      Object.assign(http.responseHeaders, rateHeaders(decision));
      if (!decision.allowed) {
        recordMetric('RateLimitRefusals', 1, { Plan: rateLimitPlan(http.principal) });
        const refusal = rateLimitExceeded(decision.retryAfterSeconds ?? 1);
        if (decision.exceedsWindow) {
          refusal.body.details = `This request costs ${tokens} tokens, more than the ${decision.exceedsWindow.limit} per ${decision.exceedsWindow.kind} your plan allows`;
        }
        throw refusal;
      }
    },
    onError: async (request) => {
      const http = httpStateOf(request);
      const refusedForTheCaller = (httpErrorOf(request.error)?.status ?? 500) < 500;
      if (!http.principal || http.rateDecision || !refusedForTheCaller) return;
      try {
        Object.assign(http.responseHeaders, rateHeaders(await peekTokens(http.principal.rateBucket, http.principal.limits, nowMs, scope?.(http, request.event) ?? null)));
      } catch (error) {
        logger.warn('rate-limit headers unavailable', { error: error as Error });
      }
    },
  };
}
