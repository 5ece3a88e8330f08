import type { Plan } from './plans.ts';

/**
 * Names of environment variables through which a deployment tells the functions, and the
 * operator CLI, what only it knows. The stack sets them (lib/) or publishes their values as
 * outputs, the local platform sets its own values (lib/local/), and the code that reads them
 * names them from here, so neither side reaches into the other. Tables, buckets and queues name
 * their variables in resources.ts; the bike-share feeds setting is in bike-share-feeds.ts with its
 * parser.
 */

/**
 * The API Gateway usage plan of each customer plan: the operator CLI's `--aws` mode adds a key
 * to its plan's usage plan (stack outputs `UsagePlanId*`).
 */
export const usagePlanEnvVars: Record<Plan, string> = {
  free: 'SPOKE_USAGE_PLAN_FREE',
  enterprise: 'SPOKE_USAGE_PLAN_ENTERPRISE',
  partner: 'SPOKE_USAGE_PLAN_PARTNER',
};

/**
 * Requests made with OAuth access tokens are metered per app: each registered app has a usage
 * key (never shown to anyone) in this usage plan, and the authorizer returns it for the app's tokens.
 */
export const OAUTH_APPS_USAGE_PLAN_ENV_VAR = 'SPOKE_USAGE_PLAN_OAUTH_APPS';

/**
 * Where the secret that usage-plan key values are derived under is (functions/auth/usage-keys.ts):
 * in AWS the Secrets Manager secret the stack creates, for the authorizer and the operator CLI;
 * on the local platform, which has no usage plans, a file of its versions; or one fixed secret (tests).
 */
export const USAGE_KEY_SECRET_ARN_ENV_VAR = 'USAGE_KEY_SECRET_ARN';
export const USAGE_KEY_SECRETS_FILE_ENV_VAR = 'USAGE_KEY_SECRETS_FILE';
export const USAGE_KEY_SECRET_ENV_VAR = 'USAGE_KEY_SECRET';

/** The API Gateway usage key that meters rider sessions on the metered `{base_url}` (spec 5.1: a session in place of an API key). */
export const RIDER_SESSION_USAGE_KEY_ENV_VAR = 'RIDER_SESSION_USAGE_KEY';
