import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { FREE_PLAN_LIMITS, plans } from '../../platform/plans.ts';
import { OAUTH_APPS_USAGE_PLAN_ENV_VAR, USAGE_KEY_SECRET_ARN_ENV_VAR, usagePlanEnvVars } from '../../platform/deployment-settings.ts';
import { endpoints, versionedFamilies, type ApiName } from '../../platform/endpoints.ts';
import { buckets, tables } from '../../platform/resources.ts';
import { gatewayResponses } from '../../lib/gateway-responses.ts';
import { keysOf, pascalCase } from '../../lib/naming.ts';
import { actionsOn, apiMethods, apiResourcePaths, logicalId, platform, refersTo, resourcesOfType, type ApiMethod } from './platform-template.ts';

const apiNames: ApiName[] = ['base', 'app'];

function api(name: ApiName): RestApi {
  return platform().stack.apis.apis[name];
}

function anyMethodAt(name: ApiName, path: string): ApiMethod {
  const method = apiMethods(logicalId(api(name))).find(
    (candidate) => candidate.path === path && candidate.httpMethod === 'ANY',
  );
  if (!method) throw new Error(`No ANY method at ${path} on the ${name} API`);
  return method;
}

function integratesWith(method: ApiMethod, fn: IFunction): boolean {
  const integration = method.properties['Integration'] as { Type: string; Uri: unknown };
  return integration.Type === 'AWS_PROXY' && refersTo(integration.Uri, logicalId(fn));
}

describe('REST APIs', () => {
  it('creates the base and the app API', () => {
    platform().template.resourceCountIs('AWS::ApiGateway::RestApi', apiNames.length);
  });

  it('the base API takes the usage-plan key from the authorizer', () => {
    expect(platform().resources[logicalId(api('base'))]!.Properties?.['ApiKeySourceType']).toBe('AUTHORIZER');
  });

  it('one REQUEST authorizer per API with credentialed endpoints, uncached, without identity sources', () => {
    const apisWithCredentials = new Set(endpoints.filter((e) => e.auth !== 'public').map((e) => e.api));
    const authorizers = resourcesOfType('AWS::ApiGateway::Authorizer');
    expect(authorizers).toHaveLength(apisWithCredentials.size);
    for (const [, authorizer] of authorizers) {
      expect(authorizer.Properties).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0 });
      // The credential may be in `apikey` or in `Authorization`: no single header may be required.
      expect(authorizer.Properties?.['IdentitySource']).toBeUndefined();
      expect(refersTo(authorizer.Properties?.['AuthorizerUri'], logicalId(platform().stack.functions.authorizer.function))).toBe(true);
    }
  });
});

describe('routing from endpoints.ts', () => {
  const routes = endpoints.flatMap((endpoint) => endpoint.paths.map((path) => [`${endpoint.api} ${path}`, endpoint, path] as const));

  it.each(routes)('%s: ANY, Lambda proxy to its function', (_, endpoint, path) => {
    const method = anyMethodAt(endpoint.api, path);
    expect(integratesWith(method, platform().stack.functions.forEndpoint(endpoint.id))).toBe(true);
    if (endpoint.auth !== 'public') {
      expect(method.properties['AuthorizationType']).toBe('CUSTOM');
      expect(method.properties['AuthorizerId']).toBeDefined();
      expect(method.properties['ApiKeyRequired']).toBe(endpoint.api === 'base');
    } else {
      expect(method.properties['AuthorizationType']).toBe('NONE');
    }
  });

  it.each(apiNames)('%s API: unknown paths, the root included, go to the fallback', (name) => {
    const fallback = platform().stack.functions.fallback.function;
    for (const path of ['/', '/{proxy+}']) {
      const method = anyMethodAt(name, path);
      expect(integratesWith(method, fallback), path).toBe(true);
      expect(method.properties['AuthorizationType'], path).toBe('NONE');
    }
  });

  it.each(versionedFamilies)('%s/{proxy+} answers unknown versions through the fallback', (family) => {
    expect(integratesWith(anyMethodAt('base', `${family}/{proxy+}`), platform().stack.functions.fallback.function)).toBe(true);
  });

  it.each(apiNames)('%s API: every resource has ANY, so API Gateway never answers Missing Authentication Token', (name) => {
    const anyMethods = apiMethods(logicalId(api(name))).filter((m) => m.httpMethod === 'ANY');
    const withAny = new Set(anyMethods.map((m) => m.path));
    for (const path of ['/', ...apiResourcePaths(logicalId(api(name))).values()]) expect(withAny.has(path), path).toBe(true);
    for (const method of anyMethods) {
      expect((method.properties['Integration'] as { Type: string }).Type, method.path).toBe('AWS_PROXY');
    }
  });

  it.each(apiNames)('%s API: CORS preflight allows the credential headers', (name) => {
    const options = apiMethods(logicalId(api(name))).filter((m) => m.httpMethod === 'OPTIONS');
    expect(options.length).toBeGreaterThan(0);
    const allowHeaders = JSON.stringify(options[0]!.properties['Integration']);
    for (const header of ['apikey', 'Authorization', 'Content-Type']) expect(allowHeaders).toContain(header);
  });
});

describe('gateway responses', () => {
  const cases = apiNames.flatMap((name) => keysOf(gatewayResponses).map((type) => [`${name} ${type}`, name, type] as const));

  it.each(cases)('%s: platform error shape with CORS', (_, name, type) => {
    const responses = resourcesOfType('AWS::ApiGateway::GatewayResponse').filter(
      ([, response]) =>
        response.Properties?.['ResponseType'] === type && refersTo(response.Properties?.['RestApiId'], logicalId(api(name))),
    );
    expect(responses).toHaveLength(1);
    const properties = responses[0]![1].Properties!;
    expect(properties['ResponseTemplates']).toEqual({ 'application/json': gatewayResponses[type].template });
    expect(properties['ResponseParameters']).toEqual({ 'gatewayresponse.header.Access-Control-Allow-Origin': "'*'" });
    if (type.startsWith('DEFAULT_')) expect(properties['StatusCode']).toBeUndefined();
    else expect(properties['StatusCode']).toBe(String(gatewayResponses[type].status));
  });

  it('an authorizer refusal is 401 with the error the authorizer put in its context', () => {
    platform().template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'ACCESS_DENIED',
      StatusCode: '401',
      ResponseTemplates: { 'application/json': '{"error":"$context.authorizer.error"}' },
    });
  });
});

describe('usage plans', () => {
  it('one plan per key plan, one for third-party apps and one for riders\' sessions, each bound to the base API stage', () => {
    const { usagePlans } = platform().stack;
    const all = [...plans.map((plan) => usagePlans.plans[plan]), usagePlans.oauthApps, usagePlans.riderSessions];
    platform().template.resourceCountIs('AWS::ApiGateway::UsagePlan', all.length);
    for (const plan of all) {
      const properties = platform().resources[logicalId(plan)]!.Properties!;
      const stages = properties['ApiStages'] as { ApiId: unknown; Stage: unknown }[];
      expect(stages).toHaveLength(1);
      expect(refersTo(stages[0]!.ApiId, logicalId(api('base')))).toBe(true);
      expect(stages[0]!.Stage).toEqual({ Ref: logicalId(api('base').deploymentStage) });
    }
  });

  it('the free plan allows 1,000 requests a day and bursts of one minute of requests', () => {
    const properties = platform().resources[logicalId(platform().stack.usagePlans.plans.free)]!.Properties!;
    expect(properties['Quota']).toEqual({ Limit: FREE_PLAN_LIMITS.perDay, Period: 'DAY' });
    expect(properties['Quota']).toEqual({ Limit: 1000, Period: 'DAY' });
    expect(properties['Throttle']).toEqual({ RateLimit: 1, BurstLimit: FREE_PLAN_LIMITS.perMinute });
  });

  it("holds one API key, riders' sessions', whose value the authorizer returns; the operator CLI creates customers'", () => {
    const { usagePlans, functions } = platform().stack;
    platform().template.resourceCountIs('AWS::ApiGateway::ApiKey', 1);
    const key = platform().resources[logicalId(usagePlans.riderSessionsKey)]!.Properties!;
    const authorizer = platform().resources[logicalId(functions.authorizer.function)]!.Properties!;
    expect(key['Value']).toEqual((authorizer['Environment'] as { Variables: Record<string, unknown> }).Variables['RIDER_SESSION_USAGE_KEY']);
    expect(JSON.stringify(key['Value'])).toContain('AWS::StackId');
    platform().template.hasResourceProperties('AWS::ApiGateway::UsagePlanKey', {
      KeyId: { Ref: logicalId(usagePlans.riderSessionsKey) },
      UsagePlanId: { Ref: logicalId(usagePlans.riderSessions) },
      KeyType: 'API_KEY',
    });
  });
});

describe('usage-key secret', () => {
  it('is generated by the stack, and the authorizer alone of the functions may read it, by the ARN in its environment', () => {
    const { usagePlans, functions } = platform().stack;
    const secretId = logicalId(usagePlans.usageKeySecret);
    const secret = platform().resources[secretId]!;
    expect(secret.Type).toBe('AWS::SecretsManager::Secret');
    expect(secret.Properties!['GenerateSecretString']).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    const authorizer = functions.authorizer.function;
    const variables = (platform().resources[logicalId(authorizer)]!.Properties!['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(variables[USAGE_KEY_SECRET_ARN_ENV_VAR]).toEqual({ Ref: secretId });
    expect(actionsOn(logicalId(authorizer.role!), secretId)).toEqual(expect.arrayContaining(['secretsmanager:GetSecretValue']));
    const readers = resourcesOfType('AWS::IAM::Policy').filter(([, policy]) => refersTo(policy.Properties?.['PolicyDocument'], secretId));
    expect(readers).toHaveLength(1);
    expect(refersTo(readers[0]![1].Properties!['Roles'], logicalId(authorizer.role!))).toBe(true);
    for (const [id, fn] of resourcesOfType('AWS::Lambda::Function')) {
      if (id !== logicalId(authorizer)) expect(refersTo(fn.Properties?.['Environment'] ?? null, secretId), id).toBe(false);
    }
  });

  it('is an output named after the variable the operator CLI reads', () => {
    const output = (platform().template.toJSON().Outputs as Record<string, { Value: unknown; Description: string }>)['UsageKeySecretArn']!;
    expect(output.Value).toEqual({ Ref: logicalId(platform().stack.usagePlans.usageKeySecret) });
    expect(output.Description.split(' ')[0]).toBe(USAGE_KEY_SECRET_ARN_ENV_VAR);
  });
});

describe('outputs', () => {
  const outputs = (): Record<string, { Value: unknown; Description?: string }> => platform().template.toJSON().Outputs;

  it('both API URLs', () => {
    expect(outputs()['BaseApiUrl']).toBeDefined();
    expect(outputs()['AppApiUrl']).toBeDefined();
  });

  it('each usage plan id, named after the variable the operator CLI reads', () => {
    for (const plan of plans) {
      const output = outputs()[`UsagePlanId${pascalCase(plan)}`]!;
      expect(output.Value).toEqual({ Ref: logicalId(platform().stack.usagePlans.plans[plan]) });
      expect(output.Description?.split(' ')[0]).toBe(usagePlanEnvVars[plan]);
    }
    const apps = outputs()['UsagePlanIdOauthApps']!;
    expect(apps.Value).toEqual({ Ref: logicalId(platform().stack.usagePlans.oauthApps) });
    expect(apps.Description?.split(' ')[0]).toBe(OAUTH_APPS_USAGE_PLAN_ENV_VAR);
  });

  it('each table and bucket name, named after its resources.ts variable', () => {
    for (const name of keysOf(tables)) {
      expect(outputs()[`${pascalCase(name)}TableName`]!.Description?.split(' ')[0]).toBe(tables[name].envVar);
    }
    for (const name of keysOf(buckets)) {
      expect(outputs()[`${pascalCase(name)}BucketName`]!.Description?.split(' ')[0]).toBe(buckets[name].envVar);
    }
  });
});
