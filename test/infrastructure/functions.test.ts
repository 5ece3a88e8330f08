import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { cityIds } from '../../core/cities/index.ts';
import { authorizerAccess, cityRouterAccess, endpoints, riderSignInTriggerAccess, routerFunctionEnvVar, type ResourceAccess } from '../../platform/endpoints.ts';
import { buckets, queues, tables, type BucketDefinition } from '../../platform/resources.ts';
import { workers } from '../../platform/workers.ts';
import { NIGHTLY_BUILD_ACCESS } from '../../lib/graph-rebuild.ts';
import { keysOf } from '../../lib/naming.ts';
import { actionsOn, logicalId, platform, resourcesOfType } from './platform-template.ts';

/** Every function of the stack with the access it is declared to need. */
function declaredFunctions(): { name: string; fn: NodejsFunction; access: ResourceAccess; settings: boolean }[] {
  const { functions, graphRebuild, riderIdentity, bikeShare, workers: workerFunctions, staticInputs } = platform().stack;
  return [
    // A routing endpoint's function is its dispatch, which reads no setting; the cities' functions do.
    ...endpoints.map((endpoint) => ({ name: endpoint.id, fn: functions.forEndpoint(endpoint.id), access: endpoint.access, settings: !endpoint.routedByCity })),
    ...cityIds.map((city) => ({ name: `routing ${city}`, fn: functions.cityRouters[city].function, access: cityRouterAccess, settings: true })),
    ...workers.map((worker) => ({ name: worker.id, fn: workerFunctions.forWorker(worker.id).function, access: worker.access, settings: false })),
    { name: 'authorizer', fn: functions.authorizer.function, access: authorizerAccess, settings: true },
    { name: 'fallback', fn: functions.fallback.function, access: {}, settings: false },
    ...[...graphRebuild.cities].map(([city, build]) => ({ name: `graph build ${city}`, fn: build.builder.function, access: NIGHTLY_BUILD_ACCESS, settings: false })),
    // It may send to the build queues, which are the graph rebuild's own (not resources.ts queues).
    { name: 'graph build dispatch', fn: graphRebuild.dispatcher.function, access: {}, settings: false },
    { name: 'parking publish', fn: staticInputs!.parkingPublisher.function, access: { buckets: { graphs: 'readwrite' } } satisfies ResourceAccess, settings: false },
    { name: 'rider sign-in trigger', fn: riderIdentity.signInTrigger.function, access: riderSignInTriggerAccess, settings: false },
    ...Object.entries(bikeShare.ingesters).map(([city, ingester]) => ({
      name: `bike-share ingestion ${city}`,
      fn: ingester.function,
      access: { buckets: { bikeshare: 'readwrite' } } satisfies ResourceAccess,
      settings: false,
    })),
  ];
}

const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const BUCKET_WRITE_ACTIONS = ['s3:PutObject', 's3:DeleteObject*', 's3:Abort*'];

function roleId(fn: NodejsFunction): string {
  return logicalId(fn.role!);
}

function properties(fn: NodejsFunction): Record<string, unknown> {
  return platform().resources[logicalId(fn)]!.Properties ?? {};
}

function environmentOf(fn: NodejsFunction): Record<string, unknown> {
  return (properties(fn)['Environment'] as { Variables: Record<string, unknown> }).Variables;
}

describe('Lambda functions', () => {
  it('the stack has exactly the declared functions, besides the CDK\'s own upload and trigger handlers', () => {
    const declared = new Set(declaredFunctions().map(({ fn }) => logicalId(fn)));
    const others = resourcesOfType('AWS::Lambda::Function').map(([id]) => id).filter((id) => !declared.has(id));
    expect(declared.size).toBe(declaredFunctions().length);
    expect(others.map((id) => id.replace(/[0-9A-F]{8,}.*$/, ''))).toEqual(['CustomCDKBucketDeployment', 'AWSCDKTriggerCustomResourceProviderCustomResourceProviderHandler']);
  });

  it('every function runs nodejs22.x on arm64 and logs to its own log group with a retention', () => {
    for (const { fn: declared } of declaredFunctions()) {
      const fn = platform().resources[logicalId(declared)]!;
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
      const logGroupRef = (fn.Properties?.['LoggingConfig'] as { LogGroup: { Ref: string } }).LogGroup.Ref;
      const logGroup = platform().resources[logGroupRef]!;
      expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
      expect(logGroup.Properties?.['RetentionInDays']).toBe(30);
    }
    const logGroupRefs = declaredFunctions().map(({ fn }) => JSON.stringify(properties(fn)['LoggingConfig']));
    expect(new Set(logGroupRefs).size).toBe(logGroupRefs.length);
  });

  it.each(endpoints.map((endpoint) => [endpoint.id, endpoint] as const))('%s: memory and timeout from endpoints.ts', (_, endpoint) => {
    const props = properties(platform().stack.functions.forEndpoint(endpoint.id));
    if (endpoint.memoryMb) expect(props['MemorySize']).toBe(endpoint.memoryMb);
    if (endpoint.timeoutSeconds) expect(props['Timeout']).toBe(endpoint.timeoutSeconds);
  });

  it('each function sees exactly the resources it may access, under the variables of resources.ts', () => {
    const settings = Object.keys(platform().stack.functions.environment);
    expect(settings.sort()).toEqual(
      ['OAUTH_ISSUER', 'SPOKE_MAIL_FROM', 'RIDER_IDP_ISSUER', 'RIDER_IDP_JWKS_URI', 'RIDER_IDP_AUTHORIZE_URL', 'RIDER_IDP_TOKEN_URL', 'RIDER_IDP_CONSENT_CLIENT_ID', 'RIDER_IDP_APP_CLIENT_IDS', 'RIDER_SESSION_USAGE_KEY'].sort(),
    );
    for (const { name, fn, access, settings: withSettings } of declaredFunctions()) {
      const expected = [
        ...keysOf(access.tables ?? {}).map((table) => tables[table].envVar),
        ...keysOf(access.buckets ?? {}).flatMap((bucket) => {
          const definition: BucketDefinition = buckets[bucket];
          return [definition.envVar, ...(definition.publicUrlEnvVar ? [definition.publicUrlEnvVar] : [])];
        }),
        ...keysOf(access.queues ?? {}).map((queue) => queues[queue].envVar),
        ...(withSettings ? settings : []),
        'POWERTOOLS_SERVICE_NAME',
        'POWERTOOLS_METRICS_NAMESPACE',
        'NODE_OPTIONS',
      ];
      const variables = environmentOf(fn);
      // Settings of single functions, checked with them: the graph builds' (graph-rebuild.test.ts)
      // the authorizer's usage-key secret (apis.test.ts) and the routing dispatch's functions (quotas.test.ts).
      const ownSettings = ['GRAPH_SOURCE_URLS', 'GRAPH_BUILD_CITY', 'GRAPH_BUILD_QUEUES', 'STATIC_INPUTS_DIGEST', 'USAGE_KEY_SECRET_ARN', ...cityIds.map(routerFunctionEnvVar)];
      const resourceVariables = Object.keys(variables).filter((variable) => !ownSettings.includes(variable));
      expect(resourceVariables.sort(), name).toEqual(expected.sort());
      expect(variables['NODE_OPTIONS']).toBe('--enable-source-maps');
    }
  });

  it('the table variable holds the physical table name', () => {
    const router = platform().stack.functions.cityRouters.london.function;
    expect(environmentOf(router)[tables.rateLimits.envVar]).toEqual({
      Ref: logicalId(platform().stack.dataStores.tables.rateLimits),
    });
  });
});

describe('least privilege', () => {
  it('every declared kind of access is granted (none is silently dropped)', () => {
    Annotations.fromStack(platform().stack).hasNoError('*', Match.anyValue());
  });


  it('each function is granted exactly its declared tables, buckets and queues at the declared level', () => {
    const { dataStores } = platform().stack;
    for (const { name, fn, access } of declaredFunctions()) {
      const role = roleId(fn);
      for (const table of keysOf(tables)) {
        const actions = actionsOn(role, logicalId(dataStores.tables[table]));
        const level = access.tables?.[table];
        const context = `${name} on table ${table}`;
        if (!level) expect(actions, context).toEqual([]);
        else expect(actions, context).toContain('dynamodb:GetItem');
        if (level === 'read') for (const write of TABLE_WRITE_ACTIONS) expect(actions, context).not.toContain(write);
        if (level === 'readwrite') expect(actions, context).toContain('dynamodb:UpdateItem');
      }
      for (const bucket of keysOf(buckets)) {
        const actions = actionsOn(role, logicalId(dataStores.buckets[bucket]));
        const level = access.buckets?.[bucket];
        const context = `${name} on bucket ${bucket}`;
        if (!level) expect(actions, context).toEqual([]);
        else expect(actions, context).toContain('s3:GetObject*');
        if (level === 'read') for (const write of BUCKET_WRITE_ACTIONS) expect(actions, context).not.toContain(write);
        if (level === 'readwrite') expect(actions, context).toContain('s3:PutObject');
      }
      for (const queue of keysOf(queues)) {
        const actions = actionsOn(role, logicalId(dataStores.queues[queue].queue));
        const level = access.queues?.[queue];
        const context = `${name} on queue ${queue}`;
        if (!level) expect(actions, context).toEqual([]);
        if (level === 'send') expect(actions, context).toContain('sqs:SendMessage');
        if (level === 'consume') expect(actions, context).toContain('sqs:ReceiveMessage');
      }
    }
  });

  it('the directions function cannot touch the API keys', () => {
    const { functions, dataStores } = platform().stack;
    expect(actionsOn(roleId(functions.forEndpoint('directions')), logicalId(dataStores.tables.apiKeys))).toEqual([]);
  });

  it('the authorizer only reads the API keys and touches nothing else', () => {
    const { functions, dataStores } = platform().stack;
    const role = roleId(functions.authorizer.function);
    const actions = actionsOn(role, logicalId(dataStores.tables.apiKeys));
    expect(actions).toContain('dynamodb:GetItem');
    for (const write of TABLE_WRITE_ACTIONS) expect(actions).not.toContain(write);
    expect(actionsOn(role, logicalId(dataStores.tables.rateLimits))).toEqual([]);
  });
});
