import type { CfnElement } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { cityIds } from '../../core/cities/cities.ts';
import { authorizerAccess, endpoints, riderSignInTriggerAccess, type ResourceAccess } from '../../functions/platform/endpoints.ts';
import { buckets, queues, tables, type BucketDefinition } from '../../functions/platform/resources.ts';
import { workers } from '../../functions/platform/workers.ts';
import { DEFAULT_GRAPH_SOURCE_URLS } from '../../graph-builder/sources.ts';
import { NIGHTLY_BUILD_ACCESS, NIGHTLY_BUILD_MEMORY_MB } from '../../lib/graph-rebuild.ts';
import { keysOf } from '../../lib/naming.ts';
import { actionsOn, logicalId, platform, resourcesOfType, synthesizePlatform } from './platform-template.ts';

/** Every function of the stack with the access it is declared to need. */
function declaredFunctions(): { name: string; fn: NodejsFunction; access: ResourceAccess; settings: boolean }[] {
  const { functions, graphRebuild, riderIdentity, bikeShare, workers: workerFunctions } = platform().stack;
  return [
    ...endpoints.map((endpoint) => ({ name: endpoint.id, fn: functions.forEndpoint(endpoint.id), access: endpoint.access, settings: true })),
    ...workers.map((worker) => ({ name: worker.id, fn: workerFunctions.forWorker(worker.id).function, access: worker.access, settings: false })),
    { name: 'authorizer', fn: functions.authorizer.function, access: authorizerAccess, settings: true },
    { name: 'fallback', fn: functions.fallback.function, access: {}, settings: false },
    { name: 'nightly graph build', fn: graphRebuild.builder.function, access: NIGHTLY_BUILD_ACCESS, settings: false },
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
  it('the stack has exactly the declared functions', () => {
    platform().template.resourceCountIs('AWS::Lambda::Function', declaredFunctions().length);
  });

  it('every function runs nodejs22.x on arm64 and logs to its own log group with a retention', () => {
    for (const [, fn] of resourcesOfType('AWS::Lambda::Function')) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
      const logGroupRef = (fn.Properties?.['LoggingConfig'] as { LogGroup: { Ref: string } }).LogGroup.Ref;
      const logGroup = platform().resources[logGroupRef]!;
      expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
      expect(logGroup.Properties?.['RetentionInDays']).toBe(30);
    }
    const logGroupRefs = resourcesOfType('AWS::Lambda::Function').map(([, fn]) => JSON.stringify(fn.Properties?.['LoggingConfig']));
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
        'NODE_OPTIONS',
      ];
      const variables = environmentOf(fn);
      const resourceVariables = Object.keys(variables).filter((variable) => variable !== 'GRAPH_SOURCE_URLS');
      expect(resourceVariables.sort(), name).toEqual(expected.sort());
      expect(variables['NODE_OPTIONS']).toBe('--enable-source-maps');
    }
  });

  it('the table variable holds the physical table name', () => {
    const directions = platform().stack.functions.forEndpoint('directions');
    expect(environmentOf(directions)[tables.rateLimits.envVar]).toEqual({
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

describe('nightly graph rebuild', () => {
  const builder = (): NodejsFunction => platform().stack.graphRebuild.builder.function;

  it('runs daily at 03:00 UTC', () => {
    platform().template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(0 3 * * ? *)',
      State: 'ENABLED',
      Targets: [{ Arn: { 'Fn::GetAtt': [logicalId(builder()), 'Arn'] } }],
    });
  });

  it('has the measured memory, 15 minutes and 4 GiB of /tmp', () => {
    expect(properties(builder())).toMatchObject({
      MemorySize: NIGHTLY_BUILD_MEMORY_MB,
      Timeout: 900,
      EphemeralStorage: { Size: 4096 },
    });
  });

  it('knows the graphs bucket and, by default, every city\'s extracts from the city definitions', () => {
    const variables = environmentOf(builder());
    expect(variables[buckets.graphs.envVar]).toEqual({ Ref: logicalId(platform().stack.dataStores.buckets.graphs) });
    const sources = JSON.parse(String(variables['GRAPH_SOURCE_URLS'])) as Record<string, string[]>;
    expect(sources).toEqual(DEFAULT_GRAPH_SOURCE_URLS);
    expect(Object.keys(sources).sort()).toEqual([...cityIds].sort());
  });

  it('takes the extract URLs from the graphSourceUrls context value', () => {
    const { stack, template } = synthesizePlatform({ graphSourceUrls: '{"london":"https://example.org/london.osm.pbf"}' });
    const builderId = stack.getLogicalId(stack.graphRebuild.builder.function.node.defaultChild as CfnElement);
    const resource = template.toJSON().Resources[builderId];
    expect(JSON.parse(resource.Properties.Environment.Variables.GRAPH_SOURCE_URLS)).toEqual({
      london: ['https://example.org/london.osm.pbf'],
    });
  });

  it.each([
    ['an unknown city', '{"atlantis":"https://example.org/a.osm.pbf"}'],
    ['a URL that is not https', '{"london":"ftp://example.org/x"}'],
    ['no sources', '{}'],
  ])('refuses %s', (_, value) => {
    expect(() => synthesizePlatform({ graphSourceUrls: value })).toThrow(/graphSourceUrls/);
  });
});
