import { Aws, CfnOutput, CfnParameter, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { OAUTH_APPS_USAGE_PLAN_ENV_VAR, usagePlanEnvVars } from '../functions/auth/usage-plans.ts';
import { RIDER_SESSION_USAGE_KEY_ENV_VAR } from '../functions/riders/identity-provider-client.ts';
import { buckets, queues, tables } from '../functions/platform/resources.ts';
import { BIKESHARE_FEEDS_CONTEXT_KEY, BikeShareIngestion } from './bike-share.ts';
import { DataStores } from './data-stores.ts';
import { EndpointFunctions } from './endpoint-functions.ts';
import { GRAPH_SOURCES_CONTEXT_KEY, GraphRebuild, graphSourceUrls } from './graph-rebuild.ts';
import { keysOf, pascalCase } from './naming.ts';
import { RestApis } from './rest-apis.ts';
import { RiderIdentity } from './rider-identity.ts';
import { UsagePlans } from './usage-plans.ts';
import { WorkerFunctions } from './worker-functions.ts';

/** The one setting the operator supplies for each deployment, with the rules CloudFormation checks. */
export const stackParameters = {
  OAuthIssuerUrl: {
    description:
      '{base_url} as apps see it, e.g. https://api.spoke.example (the custom domain mapped to the base API, or its execute-api URL with the stage): the OAuth issuer and access-token audience, and the origin of the consent screen. No trailing slash.',
    allowedPattern: '^https://[^/\\s]+(/[^\\s]*[^/\\s])?$',
    constraintDescription: 'an https URL without a trailing slash',
  },
  MailFromAddress: {
    description: 'The sender of sign-in codes and account mail (Cognito and the consent screen): an email address verified in Amazon SES in this region.',
    allowedPattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
    constraintDescription: 'an email address',
  },
} as const;

/** Where the platform's own rider app receives its codes (a private-use scheme, spec 5.5's form). */
export const DEFAULT_RIDER_APP_CALLBACK = 'com.spoke.rider:/oauth/callback';

export const STACK_NAME = 'SpokePlatform';

/**
 * The whole platform in AWS: one construct per capability, composed here. Outputs whose
 * description starts with an environment variable name carry that variable's value for the
 * operator CLI (`npm run admin -- ... --aws`); docs/operations.md shows how to export them.
 */
export class SpokeStack extends Stack {
  readonly dataStores: DataStores;
  readonly functions: EndpointFunctions;
  readonly apis: RestApis;
  readonly usagePlans: UsagePlans;
  readonly graphRebuild: GraphRebuild;
  readonly riderIdentity: RiderIdentity;
  readonly bikeShare: BikeShareIngestion;
  readonly workers: WorkerFunctions;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    // Read first so a malformed context value fails before anything is built.
    const sourceUrls = graphSourceUrls(this.node.tryGetContext(GRAPH_SOURCES_CONTEXT_KEY));
    const parameter = (name: keyof typeof stackParameters) => new CfnParameter(this, name, { type: 'String', ...stackParameters[name] }).valueAsString;
    const issuerUrl = parameter('OAuthIssuerUrl');
    const mailFrom = parameter('MailFromAddress');
    const riderAppCallbackUrls = new CfnParameter(this, 'RiderAppCallbackUrls', {
      type: 'CommaDelimitedList',
      default: DEFAULT_RIDER_APP_CALLBACK,
      description: "Where the platform's own rider apps receive authorization codes from the rider sign-in (comma-separated).",
    }).valueAsList;
    // Unique to this stack; no secret (the base API takes usage keys from the authorizer only).
    const riderSessionsKeyValue = Fn.join('-', ['spoke-rider-sessions', Fn.select(2, Fn.split('/', Aws.STACK_ID))]);

    this.dataStores = new DataStores(this, 'DataStores');
    this.riderIdentity = new RiderIdentity(this, 'RiderIdentity', { dataStores: this.dataStores, issuerUrl, mailFrom, riderAppCallbackUrls });
    this.functions = new EndpointFunctions(this, 'EndpointFunctions', {
      dataStores: this.dataStores,
      // What the OAuth, rider and authorizer code reads (README, "Deployment settings").
      environment: {
        OAUTH_ISSUER: issuerUrl,
        SPOKE_MAIL_FROM: mailFrom,
        ...this.riderIdentity.functionEnvironment(),
        [RIDER_SESSION_USAGE_KEY_ENV_VAR]: riderSessionsKeyValue,
      },
    });
    this.apis = new RestApis(this, 'Apis', { functions: this.functions });
    this.usagePlans = new UsagePlans(this, 'UsagePlans', { api: this.apis.base, riderSessionsKeyValue });
    this.graphRebuild = new GraphRebuild(this, 'GraphRebuild', {
      dataStores: this.dataStores,
      sourceUrls,
    });
    this.bikeShare = new BikeShareIngestion(this, 'BikeShare', {
      dataStores: this.dataStores,
      feeds: this.node.tryGetContext(BIKESHARE_FEEDS_CONTEXT_KEY),
    });
    this.workers = new WorkerFunctions(this, 'Workers', { dataStores: this.dataStores });
    this.addOutputs();
  }

  private addOutputs(): void {
    new CfnOutput(this, 'BaseApiUrl', { value: this.apis.base.url, description: '{base_url}' });
    new CfnOutput(this, 'AppApiUrl', { value: this.apis.app.url, description: '{app_base_url}' });
    for (const plan of keysOf(usagePlanEnvVars)) {
      new CfnOutput(this, `UsagePlanId${pascalCase(plan)}`, {
        value: this.usagePlans.plans[plan].usagePlanId,
        description: `${usagePlanEnvVars[plan]} ${plan} usage plan: the operator CLI adds ${plan} keys to it`,
      });
    }
    new CfnOutput(this, 'UsagePlanIdOauthApps', {
      value: this.usagePlans.oauthApps.usagePlanId,
      description: `${OAUTH_APPS_USAGE_PLAN_ENV_VAR} usage plan of third-party apps: the operator CLI adds each app's usage key to it`,
    });
    new CfnOutput(this, 'RiderUserPoolId', {
      value: this.riderIdentity.userPool.userPoolId,
      description: 'RIDER_USER_POOL_ID Cognito user pool of riders: the operator CLI puts riders in its admin group',
    });
    new CfnOutput(this, 'RiderAppClientId', {
      value: this.riderIdentity.riderAppClient.userPoolClientId,
      description: "Cognito app client of the platform's own rider apps (public, authorization code with PKCE)",
    });
    new CfnOutput(this, 'RiderSignInUrl', {
      value: this.riderIdentity.domain.baseUrl(),
      description: 'Cognito hosted sign-in of riders: /oauth2/authorize and /oauth2/token',
    });
    for (const [name, url] of Object.entries(this.dataStores.publicUrls)) {
      new CfnOutput(this, `${pascalCase(name)}PublicUrl`, { value: url, description: `CDN in front of the ${name} bucket` });
    }
    for (const name of keysOf(tables)) {
      new CfnOutput(this, `${pascalCase(name)}TableName`, {
        value: this.dataStores.tables[name].tableName,
        description: `${tables[name].envVar} ${tables[name].purpose}`,
      });
    }
    for (const name of keysOf(buckets)) {
      new CfnOutput(this, `${pascalCase(name)}BucketName`, {
        value: this.dataStores.buckets[name].bucketName,
        description: `${buckets[name].envVar} ${buckets[name].purpose}`,
      });
    }
    for (const name of keysOf(queues)) {
      const { queue, deadLetterQueue } = this.dataStores.queues[name];
      new CfnOutput(this, `${pascalCase(name)}QueueUrl`, {
        value: queue.queueUrl,
        description: `${queues[name].envVar} ${queues[name].purpose}`,
      });
      new CfnOutput(this, `${pascalCase(name)}DeadLetterQueueUrl`, {
        value: deadLetterQueue.queueUrl,
        description: `Dead-letter queue of ${queues[name].name}: inspect, then redrive from the SQS console`,
      });
    }
  }
}
