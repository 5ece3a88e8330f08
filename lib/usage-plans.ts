import { ApiKey, Period, UsagePlan, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { FREE_PLAN_LIMITS, plans, type Plan } from '../platform/plans.ts';
import { USAGE_KEY_SECRET_ARN_ENV_VAR } from '../platform/deployment-settings.ts';
import { mapKeys, pascalCase } from './naming.ts';

export interface UsagePlanTier {
  /** Steady requests per second API Gateway lets through for one key. */
  readonly rateLimit: number;
  /** Requests one key may send at once above the steady rate. */
  readonly burstLimit: number;
  readonly requestsPerDay: number;
  readonly description: string;
}

/**
 * API Gateway's side of the plans. The exact per-minute, per-hour and per-day limits (spec 8)
 * are enforced by the platform's own limiter, which answers 429 with `Retry-After` and the
 * `X-RateLimit-*` headers; a usage plan is the coarse outer guard that stops a flood before it
 * costs Lambda invocations. Each gateway limit is therefore at or above the limiter's, so in
 * normal use the platform's own 429 is the one a client sees.
 */
export const usagePlanTiers = {
  free: {
    // API Gateway meters whole requests per second: 10 per minute is 1/6 per second, rounded up
    // to 1, with a burst of one minute's allowance.
    rateLimit: Math.ceil(FREE_PLAN_LIMITS.perMinute / 60),
    burstLimit: FREE_PLAN_LIMITS.perMinute,
    requestsPerDay: FREE_PLAN_LIMITS.perDay,
    description: 'Free plan: 10/minute, 100/hour, 1,000/day (spec 8); daily quota enforced here too',
  },
  // Enterprise and partner limits are agreed per key and stored on the key record. These
  // ceilings sit above every limit agreed so far; a customer agreeing more needs them raised.
  enterprise: {
    rateLimit: 100,
    burstLimit: 200,
    requestsPerDay: 2_000_000,
    description: 'Enterprise plan: per-key limits from the key record, under a ceiling of 100 rps and 2M/day',
  },
  partner: {
    rateLimit: 50,
    burstLimit: 100,
    requestsPerDay: 1_000_000,
    description: 'Partner plan: per-key limits from the key record, under a ceiling of 50 rps and 1M/day',
  },
} as const satisfies Record<Plan, UsagePlanTier>;

/**
 * Usage plans of callers who are not customers' keys. Third-party apps acting for riders (OAuth
 * access tokens) each have a usage key in `oauthApps`, added by the operator CLI when the app
 * is registered (`clients create --aws`); each rider is held to 30/min, 600/h, 5,000/day per app
 * by the platform's limiter. Riders' own sessions (spec 5.1) share one usage key in
 * `riderSessions`, created here; each rider is held to their own limits (60/min, 1,200/h,
 * 10,000/day) by the limiter, so this plan is only the ceiling on all riders together.
 */
export const callerUsagePlanTiers = {
  oauthApps: {
    rateLimit: 50,
    burstLimit: 100,
    requestsPerDay: 1_000_000,
    description: 'Third-party apps with riders\' OAuth access tokens: per-app ceiling of 50 rps and 1M/day',
  },
  riderSessions: {
    rateLimit: 200,
    burstLimit: 400,
    requestsPerDay: 5_000_000,
    description: 'Riders\' own sessions on routing and reports, all riders together: 200 rps and 5M/day',
  },
} as const satisfies Record<string, UsagePlanTier>;

export interface UsagePlansProps {
  /** The API whose deployment stage the plans meter. */
  readonly api: RestApi;
  /** The authorizer, which names each customer key's usage key: the one reader of the usage-key secret. */
  readonly authorizer: IFunction & { addEnvironment(key: string, value: string): unknown };
  /** The value of the one usage key of riders' sessions (the authorizer returns it for them). */
  readonly riderSessionsKeyValue: string;
}

/**
 * One usage plan per key plan, bound to the metered API's stage. API keys are not in the
 * template: the operator CLI creates one per customer at run time and adds it to the plan whose
 * id this stack outputs. Its value is derived from the key id under the usage-key secret created
 * here, never the customer's key (functions/auth/usage-keys.ts).
 */
export class UsagePlans extends Construct {
  readonly plans: Readonly<Record<Plan, UsagePlan>>;
  readonly oauthApps: UsagePlan;
  readonly riderSessions: UsagePlan;
  readonly riderSessionsKey: ApiKey;
  /** What customer keys' usage-key values are derived under (functions/auth/usage-keys.ts). */
  readonly usageKeySecret: Secret;

  constructor(scope: Construct, id: string, props: UsagePlansProps) {
    super(scope, id);
    const usagePlan = (planId: string, name: string, tier: UsagePlanTier) =>
      new UsagePlan(this, planId, {
        name: `spoke-${name}`,
        description: tier.description,
        throttle: { rateLimit: tier.rateLimit, burstLimit: tier.burstLimit },
        quota: { limit: tier.requestsPerDay, period: Period.DAY },
        apiStages: [{ api: props.api, stage: props.api.deploymentStage }],
      });
    this.plans = mapKeys(plans, (plan) => usagePlan(pascalCase(plan), plan, usagePlanTiers[plan]));
    this.oauthApps = usagePlan('OauthApps', 'oauth-apps', callerUsagePlanTiers.oauthApps);
    this.riderSessions = usagePlan('RiderSessions', 'rider-sessions', callerUsagePlanTiers.riderSessions);
    // Its value is no secret: with the key source AUTHORIZER only the authorizer's answer counts.
    this.riderSessionsKey = new ApiKey(this, 'RiderSessionsKey', {
      description: 'Meters riders\' own sessions on the base API (returned by the authorizer)',
      value: props.riderSessionsKeyValue,
    });
    this.riderSessions.addApiKey(this.riderSessionsKey);
    this.usageKeySecret = new Secret(this, 'UsageKeySecret', {
      description: 'Derives the API Gateway key value of each customer API key (HMAC of the key id); read by the authorizer and the operator CLI',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    this.usageKeySecret.grantRead(props.authorizer);
    props.authorizer.addEnvironment(USAGE_KEY_SECRET_ARN_ENV_VAR, this.usageKeySecret.secretArn);
  }
}
