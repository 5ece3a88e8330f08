import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  CfnAccount,
  AuthorizationType,
  type CfnAuthorizer,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  type IResource,
  type MethodOptions,
} from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { apiDefinitions, endpoints, versionedFamilies, type ApiName, type EndpointDefinition } from '../platform/endpoints.ts';
import {
  binaryMediaTypes,
  corsPreflight,
  gatewayResponseHeaders,
  gatewayResponses,
  type GatewayResponseType,
} from './gateway-responses.ts';
import type { EndpointFunctions } from './endpoint-functions.ts';
import { keysOf, mapKeys, pascalCase } from './naming.ts';
import { LOG_RETENTION } from './spoke-function.ts';

/** The stage every API is deployed to; its name is part of the default execute-api URL. */
export const STAGE_NAME = 'prod';

const apiDescriptions: Readonly<Record<ApiName, string>> = {
  base: 'Spoke {base_url}: directions, multi-modal, reports, OAuth',
  app: 'Spoke {app_base_url}: rider, bike and event endpoints',
};

/**
 * Types whose status is the one API Gateway chose (403 missing token, 413 too large, 504
 * timeout, ...): only their body is reshaped. Setting a status here would turn them all into one.
 */
/**
 * One line per request in each stage's access log, as JSON for Logs Insights. The API key's id,
 * never its value; the resource path (`/reports/{id}`), never the requested one with its ids.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  apiKeyId: '$context.identity.apiKeyId',
  resourcePath: '$context.resourcePath',
  httpMethod: '$context.httpMethod',
  status: '$context.status',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  sourceIp: '$context.identity.sourceIp',
  requestTime: '$context.requestTimeEpoch',
} as const;

/**
 * Every caller of one API together, per second: the outer bound behind the usage plans' per-key
 * limits (lib/usage-plans.ts). It keeps a flood from using the account's whole API Gateway quota
 * (10,000 req/s, shared by all APIs of the account in the region) and the functions' concurrency
 * (1,000 in a region by default); raise it with those quotas.
 */
export const STAGE_THROTTLE = { rateLimit: 1000, burstLimit: 2000 } as const;

const KEEP_ORIGINAL_STATUS: ReadonlySet<GatewayResponseType> = new Set<GatewayResponseType>(['DEFAULT_4XX', 'DEFAULT_5XX']);

export interface RestApisProps {
  readonly functions: EndpointFunctions;
}

/**
 * The two REST APIs, `{base_url}` and `{app_base_url}`, routed from `endpoints.ts`.
 *
 * Routing follows API Gateway REST semantics: every endpoint path is a resource with method ANY
 * (the handler itself answers 405 for methods it does not serve), and a more specific resource
 * always wins over a `{proxy+}`. So each versioned family gets `<family>/{proxy+}` and each API
 * gets `/{proxy+}` plus ANY on every resource no endpoint claims, all integrated with the one
 * fallback function: every path that is not an endpoint answers 404 `Unknown endpoint or API
 * version` from our code, never API Gateway's 403 `Missing Authentication Token`.
 */
export class RestApis extends Construct {
  readonly apis: Readonly<Record<ApiName, RestApi>>;
  /** The access log group of each API's stage. */
  readonly accessLogs: Readonly<Record<ApiName, LogGroup>>;
  /** The account's API Gateway CloudWatch role, which stage logging needs. */
  readonly cloudWatchAccount: CfnAccount;
  /** Created only for APIs with credentialed endpoints; one per API because API Gateway scopes authorizers to one API. */
  private readonly authorizers = new Map<ApiName, RequestAuthorizer>();
  private readonly integrations = new Map<IFunction, LambdaIntegration>();

  constructor(scope: Construct, id: string, props: RestApisProps) {
    super(scope, id);
    this.cloudWatchAccount = apiGatewayCloudWatchAccount(this);
    this.accessLogs = mapKeys(keysOf(apiDefinitions), (name) => new LogGroup(this, `${pascalCase(name)}AccessLogs`, { retention: LOG_RETENTION }));
    this.apis = mapKeys(keysOf(apiDefinitions), (name) => this.createApi(name));

    const routers = mapKeys(keysOf(apiDefinitions), (name) => new ApiRouter(this.apis[name]));
    for (const endpoint of endpoints) {
      const integration = this.integrationFor(props.functions.forEndpoint(endpoint.id));
      const options = this.methodOptions(endpoint, props.functions);
      for (const path of endpoint.paths) routers[endpoint.api].addAnyMethod(path, integration, options, endpoint.id);
    }

    const fallback = this.integrationFor(props.functions.fallback.function);
    // Spec 9: version sub-paths live on {base_url}; a version that is not an endpoint resource
    // (`/directions/v3/`) falls into its family's proxy.
    for (const family of versionedFamilies) routers.base.addProxy(family, fallback);
    for (const router of Object.values(routers)) {
      router.addProxy('/', fallback);
      router.fillUnclaimedResources(fallback);
    }
  }

  get base(): RestApi {
    return this.apis.base;
  }

  get app(): RestApi {
    return this.apis.app;
  }

  private createApi(name: ApiName): RestApi {
    const metered = apiDefinitions[name].meteredByUsagePlans;
    const api = new RestApi(this, `${pascalCase(name)}Api`, {
      restApiName: `spoke-${name}`,
      description: apiDescriptions[name],
      endpointTypes: [EndpointType.REGIONAL],
      deployOptions: {
        stageName: STAGE_NAME,
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs[name]),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
        // Errors only, and never request or response bodies and headers (dataTrace), which
        // carry keys, tokens and riders' data.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        throttlingRateLimit: STAGE_THROTTLE.rateLimit,
        throttlingBurstLimit: STAGE_THROTTLE.burstLimit,
      },
      // One role for both APIs, set on the account below (apiGatewayCloudWatchAccount).
      cloudWatchRole: false,
      binaryMediaTypes: [...binaryMediaTypes],
      // A metered API takes the usage-plan key from the authorizer's `usageIdentifierKey`.
      ...(metered ? { apiKeySourceType: ApiKeySourceType.AUTHORIZER } : {}),
      defaultCorsPreflightOptions: {
        allowOrigins: [...corsPreflight.allowOrigins],
        allowMethods: [...corsPreflight.allowMethods],
        allowHeaders: [...corsPreflight.allowHeaders],
        maxAge: Duration.seconds(corsPreflight.maxAgeSeconds),
      },
    });
    this.addGatewayResponses(api);
    this.retainExecutionLogs(api, name);
    api.deploymentStage.node.addDependency(this.cloudWatchAccount);
    return api;
  }

  /**
   * API Gateway writes a stage's execution logs to a group it names itself and would create
   * without a retention; creating it first, before the stage, gives it one.
   */
  private retainExecutionLogs(api: RestApi, name: ApiName): void {
    const logs = new LogGroup(this, `${pascalCase(name)}ExecutionLogs`, {
      logGroupName: `API-Gateway-Execution-Logs_${api.restApiId}/${STAGE_NAME}`,
      retention: LOG_RETENTION,
    });
    api.deploymentStage.node.addDependency(logs);
  }

  /**
   * When API Gateway answers by itself (authorizer refusal, throttling, its own errors) the body
   * is still the platform's `{"error": ...}`, from the same definitions the local gateway renders,
   * and carries the CORS header so browser clients can read it.
   */
  private addGatewayResponses(api: RestApi): void {
    const headers = Object.fromEntries(
      Object.entries(gatewayResponseHeaders).map(([header, value]) => [header, `'${value}'`]),
    );
    for (const type of keysOf(gatewayResponses)) {
      const response = gatewayResponses[type];
      api.addGatewayResponse(pascalCase(type.toLowerCase()), {
        type: ResponseType.of(type),
        ...(KEEP_ORIGINAL_STATUS.has(type) ? {} : { statusCode: String(response.status) }),
        responseHeaders: headers,
        templates: { 'application/json': response.template },
      });
    }
  }

  private methodOptions(endpoint: EndpointDefinition, functions: EndpointFunctions): MethodOptions {
    if (endpoint.auth === 'public') return {};
    // Every other kind of credential is resolved by the one authorizer; only customer
    // credentials on a metered API carry a usage-plan key.
    return {
      authorizationType: AuthorizationType.CUSTOM,
      authorizer: this.authorizerFor(endpoint.api, functions),
      apiKeyRequired: endpoint.auth === 'credential' && apiDefinitions[endpoint.api].meteredByUsagePlans,
    };
  }

  private authorizerFor(apiName: ApiName, functions: EndpointFunctions): RequestAuthorizer {
    const existing = this.authorizers.get(apiName);
    if (existing) return existing;
    const authorizer = new RequestAuthorizer(this, `${pascalCase(apiName)}Authorizer`, {
      handler: functions.authorizer.function,
      // The credential may arrive in `apikey` or in `Authorization`, and the authorizer itself
      // answers its absence with the spec's 401 message. Caching is keyed on identity sources, so
      // it is off: every request is authorized afresh (a revoked key stops at once, too).
      resultsCacheTtl: Duration.seconds(0),
      identitySources: [],
    });
    // CDK renders the empty identity-source list as `IdentitySource: ""`. Any identity source
    // would make API Gateway refuse requests lacking that one header before our authorizer runs,
    // which would reject valid keys sent in the other header, so the property is removed outright.
    (authorizer.node.defaultChild as CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');
    this.authorizers.set(apiName, authorizer);
    return authorizer;
  }

  /** One integration per function, so its invoke permissions are not duplicated per route. */
  private integrationFor(fn: IFunction): LambdaIntegration {
    let integration = this.integrations.get(fn);
    if (!integration) {
      // Test invocations from the console would need a second permission per method; the
      // Lambda resource policy has a size limit worth keeping for real routes.
      integration = new LambdaIntegration(fn, { allowTestInvoke: false });
      this.integrations.set(fn, integration);
    }
    return integration;
  }
}

/**
 * API Gateway writes logs through one role per account and region (AWS::ApiGateway::Account), not
 * per API: stage logging fails to deploy until it is set. The stack sets it for both APIs and
 * keeps the role when the stack is deleted, since other APIs of the account may log through it.
 */
function apiGatewayCloudWatchAccount(scope: Construct): CfnAccount {
  const role = new Role(scope, 'ApiGatewayCloudWatchRole', {
    assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
    description: 'Lets API Gateway write the execution and access logs of the account\'s APIs',
    managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
  });
  role.applyRemovalPolicy(RemovalPolicy.RETAIN);
  const account = new CfnAccount(scope, 'ApiGatewayAccount', { cloudWatchRoleArn: role.roleArn });
  account.applyRemovalPolicy(RemovalPolicy.RETAIN);
  return account;
}

/** Builds one API's resource tree and remembers which resources have a method. */
class ApiRouter {
  private readonly resources = new Map<string, IResource>();
  /** Resource path → who answers it, to report two endpoints claiming one path. */
  private readonly claims = new Map<string, string>();

  constructor(private readonly api: RestApi) {
    this.resources.set('/', api.root);
  }

  addAnyMethod(path: string, integration: LambdaIntegration, options: MethodOptions, owner: string): void {
    this.claim(path, owner);
    this.resourceAt(path).addMethod('ANY', integration, options);
  }

  /** `{proxy+}` under `path`, with ANY going to `integration`. */
  addProxy(path: string, integration: LambdaIntegration): void {
    const proxyPath = path === '/' ? '/{proxy+}' : `${path}/{proxy+}`;
    this.claim(proxyPath, 'fallback');
    // `{proxy+}` never matches the root itself, so CDK also puts ANY on a root without one, but
    // with a mock integration: the root gets the fallback here first, unless an endpoint has it.
    if (path === '/' && !this.claims.has('/')) {
      this.claim('/', 'fallback');
      this.api.root.addMethod('ANY', integration);
    }
    this.resourceAt(path).addProxy({ defaultIntegration: integration, anyMethod: true });
  }

  /**
   * A resource without a method (`/reports` when only `/reports/{id}` is an endpoint, or the API
   * root) would make API Gateway answer 403 `Missing Authentication Token` instead of falling
   * into a proxy, so each of them gets ANY on the fallback too.
   */
  fillUnclaimedResources(fallback: LambdaIntegration): void {
    for (const [path, resource] of this.resources) {
      if (this.claims.has(path)) continue;
      this.claim(path, 'fallback');
      resource.addMethod('ANY', fallback);
    }
  }

  private claim(path: string, owner: string): void {
    const existing = this.claims.get(path);
    if (existing) {
      // Methods share one resource only through one handler, which answers 405 for the rest.
      throw new Error(
        `${path} on ${this.api.node.id} is claimed by ${existing} and ${owner}; give one endpoint all methods of a path`,
      );
    }
    this.claims.set(path, owner);
  }

  private resourceAt(path: string): IResource {
    if (!path.startsWith('/') || (path !== '/' && path.endsWith('/'))) {
      throw new Error(`Resource path ${path} must start with / and have no trailing slash`);
    }
    let resource = this.api.root;
    let current = '';
    for (const segment of path.split('/').filter((part) => part.length > 0)) {
      current += `/${segment}`;
      resource = resource.getResource(segment) ?? resource.addResource(segment);
      this.resources.set(current, resource);
    }
    return resource;
  }
}
