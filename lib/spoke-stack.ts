import { Aws, CfnCondition, CfnOutput, CfnParameter, Fn, Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import { OAUTH_APPS_USAGE_PLAN_ENV_VAR, RIDER_SESSION_USAGE_KEY_ENV_VAR, USAGE_KEY_SECRET_ARN_ENV_VAR, usagePlanEnvVars } from '../platform/deployment-settings.ts';
import { buckets, queues, tables } from '../platform/resources.ts';
import { PlatformAlarms } from './alarms.ts';
import { BIKESHARE_FEEDS_CONTEXT_KEY, BIKESHARE_RESERVED_CONCURRENCY_CONTEXT_KEY, BikeShareIngestion } from './bike-share.ts';
import { OperationsDashboard } from './dashboard.ts';
import { DataStores } from './data-stores.ts';
import { EndpointFunctions, ROUTING_MEMORY_CONTEXT_KEY } from './endpoint-functions.ts';
import { CITY_BUILD_MAX_RECEIVE_COUNT, GRAPH_SOURCES_CONTEXT_KEY, GraphRebuild, graphSourceUrls } from './graph-rebuild.ts';
import { acknowledgeNagFindings } from './nag-suppressions.ts';
import { entriesOf, keysOf, pascalCase } from './naming.ts';
import { RestApis, STAGE_NAME } from './rest-apis.ts';
import { RiderIdentity } from './rider-identity.ts';
import { SpokeFunction } from './spoke-function.ts';
import { DATA_PATH_CONTEXT_KEY, SKIP_STATIC_INPUTS_CONTEXT_KEY, StaticInputs, staticInputsDataPath } from './static-inputs.ts';
import { UsagePlans } from './usage-plans.ts';
import { WorkerFunctions } from './worker-functions.ts';
import { WAF_CONTEXT_KEY, WebFirewall, wafEnabled } from './web-firewall.ts';
import { retainCustomResourceLogs } from './custom-resource-logs.ts';

/** The one setting the operator supplies for each deployment, with the rules CloudFormation checks. */
export const stackParameters = {
  OAuthIssuerUrl: {
    description:
      '{base_url} as apps see it when a custom domain is mapped to the base API, e.g. https://api.spoke.example: the OAuth issuer and access-token audience, and the origin of the consent screen. No trailing slash. Leave empty to use the base API\'s own execute-api URL with its stage.',
    allowedPattern: '^(https://[^/\\s]+(/[^\\s]*[^/\\s])?)?$',
    constraintDescription: 'empty, or an https URL without a trailing slash',
    default: '',
  },
  MailFromAddress: {
    description: 'The sender of sign-in codes and account mail (Cognito and the consent screen): an email address verified in Amazon SES in this region.',
    allowedPattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
    constraintDescription: 'an email address',
  },
} as const;

/**
 * The issuer URL without a second deploy: the parameter when given (a custom domain), else the
 * base API's execute-api URL, built from the REST API's id alone. `RestApi.url` would name the
 * stage's deployment, which depends on every method and so on the functions that take this
 * value: a cycle. The API resource itself depends on nothing, so functions may refer to it.
 */
function issuerUrlOf(stack: Stack, parameter: string, api: RestApi): string {
  const custom = new CfnCondition(stack, 'CustomIssuerUrl', { expression: Fn.conditionNot(Fn.conditionEquals(parameter, '')) });
  const own = Fn.join('', ['https://', api.restApiId, '.execute-api.', Aws.REGION, '.', Aws.URL_SUFFIX, '/', STAGE_NAME]);
  return Fn.conditionIf(custom.logicalId, parameter, own).toString();
}

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
  readonly staticInputs: StaticInputs | null;
  readonly alarms: PlatformAlarms;
  readonly dashboard: OperationsDashboard;
  /** The web ACL in front of both APIs, with `-c waf=true` only. */
  readonly firewall: WebFirewall | null;
  /** {base_url}: the OAuthIssuerUrl parameter, or the base API's own URL when it is empty. */
  readonly issuerUrl: string;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    // Read first so a malformed context value fails before anything is built.
    const sourceUrls = graphSourceUrls(this.node.tryGetContext(GRAPH_SOURCES_CONTEXT_KEY));
    const skipStaticInputs = String(this.node.tryGetContext(SKIP_STATIC_INPUTS_CONTEXT_KEY)) === 'true';
    const dataPath = staticInputsDataPath(this.node.tryGetContext(DATA_PATH_CONTEXT_KEY));
    const parameter = (name: keyof typeof stackParameters) => new CfnParameter(this, name, { type: 'String', ...stackParameters[name] }).valueAsString;
    const issuerParameter = parameter('OAuthIssuerUrl');
    // Resolved once the base API exists (below): every function and the consent client take it.
    const issuerUrl = Lazy.string({ produce: () => this.issuerUrl });
    const mailFrom = parameter('MailFromAddress');
    const riderAppCallbackUrls = new CfnParameter(this, 'RiderAppCallbackUrls', {
      type: 'CommaDelimitedList',
      default: DEFAULT_RIDER_APP_CALLBACK,
      description: "Where the platform's own rider apps receive authorization codes from the rider sign-in (comma-separated).",
    }).valueAsList;
    // Unique to this stack; no secret (the base API takes usage keys from the authorizer only).
    const riderSessionsKeyValue = Fn.join('-', ['spoke-rider-sessions', Fn.select(2, Fn.split('/', Aws.STACK_ID))]);

    this.dataStores = new DataStores(this, 'DataStores');
    this.alarms = new PlatformAlarms(this, 'Alarms');
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
      routingMemoryMb: this.node.tryGetContext(ROUTING_MEMORY_CONTEXT_KEY),
    });
    this.apis = new RestApis(this, 'Apis', { functions: this.functions });
    this.issuerUrl = issuerUrlOf(this, issuerParameter, this.apis.base);
    this.usagePlans = new UsagePlans(this, 'UsagePlans', { api: this.apis.base, riderSessionsKeyValue, authorizer: this.functions.authorizer.function });
    this.workers = new WorkerFunctions(this, 'Workers', { dataStores: this.dataStores, alarmTopic: this.alarms.topic });
    this.staticInputs = skipStaticInputs ? null : new StaticInputs(this, 'StaticInputs', {
      dataStores: this.dataStores,
      dataPath,
      alarmTopic: this.alarms.topic,
    });
    this.graphRebuild = new GraphRebuild(this, 'GraphRebuild', {
      dataStores: this.dataStores,
      sourceUrls,
      inputs: this.staticInputs,
      alarmTopic: this.alarms.topic,
    });
    this.bikeShare = new BikeShareIngestion(this, 'BikeShare', {
      dataStores: this.dataStores,
      feeds: this.node.tryGetContext(BIKESHARE_FEEDS_CONTEXT_KEY),
      reserveConcurrency: String(this.node.tryGetContext(BIKESHARE_RESERVED_CONCURRENCY_CONTEXT_KEY)) === 'true',
    });
    // After every other construct, so the alarms cover every function the stack has.
    this.alarms.watchFunctions(this.node.findAll().filter((construct) => construct instanceof SpokeFunction));
    for (const [name, api] of entriesOf(this.apis.apis)) this.alarms.watchApi(name, api);
    for (const city of this.graphRebuild.cities.keys()) this.alarms.watchGraphAge(city);
    this.alarms.watchReportAnalysis(this.dataStores.queues.reportAnalysis.queue);
    this.dashboard = new OperationsDashboard(this, 'Operations', {
      cities: [...this.graphRebuild.cities.keys()],
      apis: this.apis.apis,
      functions: this.functions,
      reportAnalysis: { ...this.dataStores.queues.reportAnalysis, consumer: this.workers.forWorker('report-analysis') },
      builds: this.graphRebuild.cities,
    });
    this.firewall = wafEnabled(this.node.tryGetContext(WAF_CONTEXT_KEY)) ? new WebFirewall(this, 'Firewall', { apis: Object.values(this.apis.apis) }) : null;
    retainCustomResourceLogs(this);
    acknowledgeNagFindings(this);
    this.addOutputs();
  }

  private addOutputs(): void {
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarms.topic.topicArn,
      description: 'SNS topic of every alarm of the platform: subscribe the on-call address (or deploy with -c alarmEmail=...)',
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://${Aws.REGION}.console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards:name=${this.dashboard.dashboard.dashboardName}`,
      description: 'CloudWatch dashboard of the platform: APIs, routing per city, reports, riders and OAuth, graph builds',
    });
    if (this.firewall) new CfnOutput(this, 'WebAclArn', { value: this.firewall.webAcl.attrArn, description: 'WAF web ACL in front of both APIs (-c waf=true)' });
    new CfnOutput(this, 'BaseApiUrl', { value: this.apis.base.url, description: '{base_url} without a custom domain (execute-api, with the stage)' });
    new CfnOutput(this, 'OAuthIssuer', { value: this.issuerUrl, description: 'OAUTH_ISSUER {base_url} as the functions use it: the OAuth issuer and token audience' });
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
    new CfnOutput(this, 'UsageKeySecretArn', {
      value: this.usagePlans.usageKeySecret.secretArn,
      description: `${USAGE_KEY_SECRET_ARN_ENV_VAR} secret the usage-plan key values are derived under: the operator CLI reads it to register keys`,
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
    for (const [city, build] of this.graphRebuild.cities) {
      new CfnOutput(this, `GraphBuildQueueUrl${pascalCase(city)}`, {
        value: build.queue.queueUrl,
        description: `Build queue of ${city}: a message {"city": "${city}"} starts a build of its graph`,
      });
      new CfnOutput(this, `GraphBuildDeadLetterQueueUrl${pascalCase(city)}`, {
        value: build.deadLetterQueue.queueUrl,
        description: `Dead-letter queue of the ${city} graph build: builds that failed ${CITY_BUILD_MAX_RECEIVE_COUNT} times`,
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
