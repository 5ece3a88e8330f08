import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import { cityIds } from '../../core/cities/cities.ts';
import { buckets } from '../../platform/resources.ts';
import { DEFAULT_GRAPH_SOURCE_URLS } from '../../graph-builder/sources.ts';
import {
  CITY_BUILD_MAX_RECEIVE_COUNT, CITY_BUILD_MEMORY_MB, CITY_BUILD_TIMEOUT, CITY_BUILD_VISIBILITY_TIMEOUT, MEASURED_BUILD_PEAK_MB,
} from '../../lib/graph-rebuild.ts';
import { staticInputFiles } from '../../lib/static-inputs.ts';
import { actionsOn, logicalId, notifiesAlarmTopic, platform, refersTo, resourcesOfType, synthesizePlatform, type CfnResourceJson } from './platform-template.ts';

/** The graph builds (lib/graph-rebuild.ts) and the static inputs they read (lib/static-inputs.ts) in the template. */

const rebuild = () => platform().stack.graphRebuild;
const properties = (fn: NodejsFunction): Record<string, unknown> => platform().resources[logicalId(fn)]!.Properties ?? {};
const environmentOf = (fn: NodejsFunction): Record<string, unknown> => (properties(fn)['Environment'] as { Variables: Record<string, unknown> }).Variables;
/** The logical id of the inputs' upload (the one BucketDeployment custom resource). */
const uploadId = (): string => {
  const uploads = resourcesOfType('Custom::CDKBucketDeployment');
  expect(uploads).toHaveLength(1);
  return uploads[0]![0];
};

/** Whether a trigger runs this function (its HandlerArn names a version of it). */
function triggerRuns(triggerId: string, fn: NodejsFunction): boolean {
  const handler = platform().resources[triggerId]!.Properties!['HandlerArn'] as { Ref: string };
  const version = platform().resources[handler.Ref]!;
  return version.Type === 'AWS::Lambda::Version' && refersTo(version.Properties!['FunctionName'], logicalId(fn));
}

const ofType = (type: string, id: string): [string, CfnResourceJson][] => resourcesOfType(type).filter(([, resource]) => refersTo(resource.Properties ?? null, id));

describe('per-city graph builds', () => {
  it('has one build per configured city, each its own function, queue and dead-letter queue', () => {
    expect([...rebuild().cities.keys()].sort()).toEqual([...cityIds].sort());
    const functions = new Set([...rebuild().cities.values()].map((build) => logicalId(build.builder.function)));
    const queues = new Set([...rebuild().cities.values()].map((build) => logicalId(build.queue)));
    expect(functions.size).toBe(cityIds.length);
    expect(queues.size).toBe(cityIds.length);
  });

  it.each(cityIds)('%s: builds only its own city, with the measured memory, 15 minutes and 2 GiB of /tmp', (city) => {
    const { builder } = rebuild().cities.get(city)!;
    expect(properties(builder.function)).toMatchObject({ MemorySize: CITY_BUILD_MEMORY_MB, Timeout: CITY_BUILD_TIMEOUT.toSeconds(), EphemeralStorage: { Size: 3072 } });
    // The measured peak fits with room; Lambda allows at most 10,240 MB.
    expect(CITY_BUILD_MEMORY_MB).toBeGreaterThanOrEqual(MEASURED_BUILD_PEAK_MB * 1.5);
    expect(CITY_BUILD_MEMORY_MB).toBeLessThanOrEqual(10_240);
    const variables = environmentOf(builder.function);
    expect(variables['GRAPH_BUILD_CITY']).toBe(city);
    expect(JSON.parse(String(variables['GRAPH_SOURCE_URLS']))).toEqual({ [city]: DEFAULT_GRAPH_SOURCE_URLS[city] });
    expect(variables[buckets.graphs.envVar]).toEqual({ Ref: logicalId(platform().stack.dataStores.buckets.graphs) });
  });

  it.each(cityIds)('%s: consumes its queue one message at a time; a message failing %i times goes to the dead-letter queue', (city) => {
    const { builder, queue, deadLetterQueue } = rebuild().cities.get(city)!;
    const mappings = ofType('AWS::Lambda::EventSourceMapping', logicalId(queue));
    expect(mappings).toHaveLength(1);
    expect(refersTo(mappings[0]![1].Properties!['FunctionName'], logicalId(builder.function))).toBe(true);
    expect(mappings[0]![1].Properties).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    const queueProperties = platform().resources[logicalId(queue)]!.Properties!;
    expect(queueProperties['RedrivePolicy']).toMatchObject({ maxReceiveCount: CITY_BUILD_MAX_RECEIVE_COUNT });
    expect(refersTo(queueProperties['RedrivePolicy'], logicalId(deadLetterQueue))).toBe(true);
    // A delivery stays hidden for a whole build, so a running build is never handed out twice.
    expect(queueProperties['VisibilityTimeout']).toBe(CITY_BUILD_VISIBILITY_TIMEOUT.toSeconds());
    expect(CITY_BUILD_VISIBILITY_TIMEOUT.toSeconds()).toBeGreaterThanOrEqual(6 * CITY_BUILD_TIMEOUT.toSeconds());
  });

  it.each(cityIds)('%s: alarms on a message in its dead-letter queue and on any failed build, notifying the alarm topic', (city) => {
    const { deadLetterQueue, builder } = rebuild().cities.get(city)!;
    const deadLetters = resourcesOfType('AWS::CloudWatch::Alarm').filter(([, alarm]) => refersTo(alarm.Properties?.['Dimensions'] ?? null, logicalId(deadLetterQueue)));
    expect(deadLetters).toHaveLength(1);
    expect(deadLetters[0]![1].Properties).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(notifiesAlarmTopic(deadLetters[0]![1].Properties!['AlarmActions'])).toBe(true);

    const filters = ofType('AWS::Logs::MetricFilter', logicalId(builder.logGroup));
    expect(filters).toHaveLength(1);
    const { FilterPattern: pattern, MetricTransformations: [transformation] } = filters[0]![1].Properties as { FilterPattern: string; MetricTransformations: { MetricName: string; MetricNamespace: string }[] };
    expect(pattern).toBe('{ $.message = "graph rebuild failed" }');
    const failures = resourcesOfType('AWS::CloudWatch::Alarm').filter(([, alarm]) => alarm.Properties?.['MetricName'] === transformation!.MetricName);
    expect(failures).toHaveLength(1);
    expect(failures[0]![1].Properties).toMatchObject({ Namespace: transformation!.MetricNamespace, Statistic: 'Sum', Threshold: 1 });
    expect(notifiesAlarmTopic(failures[0]![1].Properties!['AlarmActions'])).toBe(true);
  });

  it('queues the builds daily at 03:00 UTC through the dispatcher, which may send to every build queue', () => {
    const dispatcher = rebuild().dispatcher.function;
    platform().template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(0 3 * * ? *)',
      State: 'ENABLED',
      Targets: [{ Arn: { 'Fn::GetAtt': [logicalId(dispatcher), 'Arn'] } }],
    });
    const queues = environmentOf(dispatcher)['GRAPH_BUILD_QUEUES'];
    for (const build of rebuild().cities.values()) {
      expect(refersTo(queues, logicalId(build.queue))).toBe(true);
      expect(actionsOn(logicalId(dispatcher.role!), logicalId(build.queue))).toContain('sqs:SendMessage');
    }
  });

  it('runs the dispatcher after the deployment, once the inputs are uploaded and the builds can consume', () => {
    const trigger = platform().resources[logicalId(rebuild().firstBuild)]!;
    expect(trigger.Type).toBe('Custom::Trigger');
    expect(triggerRuns(logicalId(rebuild().firstBuild), rebuild().dispatcher.function)).toBe(true);
    expect(trigger.Properties!['InvocationType']).toBe('RequestResponse');
    const dependsOn = JSON.stringify((platform().template.toJSON() as { Resources: Record<string, { DependsOn?: string[] }> }).Resources[logicalId(rebuild().firstBuild)]!.DependsOn ?? []);
    expect(dependsOn).toContain(uploadId());
    for (const build of rebuild().cities.values()) expect(dependsOn).toContain(logicalId(build.builder.function));
    // A deploy that changes the inputs changes the dispatcher, so the builds run again with them.
    expect(environmentOf(rebuild().dispatcher.function)['STATIC_INPUTS_DIGEST']).toBe(platform().stack.staticInputs!.digest);
  });

  it('takes the extract URLs from the graphSourceUrls context value, building only the cities named', () => {
    const { stack, template } = synthesizePlatform({ graphSourceUrls: '{"london":"https://example.org/london.osm.pbf"}' });
    expect([...stack.graphRebuild.cities.keys()]).toEqual(['london']);
    const builderId = stack.getLogicalId(stack.graphRebuild.cities.get('london')!.builder.function.node.defaultChild as CfnElement);
    const resource = template.toJSON().Resources[builderId];
    expect(JSON.parse(resource.Properties.Environment.Variables.GRAPH_SOURCE_URLS)).toEqual({ london: ['https://example.org/london.osm.pbf'] });
  });

  it.each([
    ['an unknown city', '{"atlantis":"https://example.org/a.osm.pbf"}'],
    ['a URL that is not https', '{"london":"ftp://example.org/x"}'],
    ['no sources', '{}'],
  ])('refuses %s', (_, value) => {
    expect(() => synthesizePlatform({ graphSourceUrls: value })).toThrow(/graphSourceUrls/);
  });
});

describe('static inputs', () => {
  const listFiles = (folder: string): string[] =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((entry) => statSync(join(folder, entry)).isFile()).map((entry) => relative(folder, join(folder, entry)));

  it('names the DEM, the borough boundaries and the parking sources, and no OSM extract', () => {
    const files = staticInputFiles();
    expect(files).toEqual(expect.arrayContaining([
      'boundaries/london/london_boroughs_2013_ons_generalised.geojson',
      'elevation/sf-usgs-7.5min-dem/sf_usgs24k_dem_merged_wgs84_metres.tif',
      'other/london/tfl_cid_cycle_parking.geojson',
    ]));
    expect(files.filter((file) => file.startsWith('osm/'))).toEqual([]);
  });

  it('uploads exactly those files into the graphs bucket under inputs/', () => {
    const inputs = platform().stack.staticInputs!;
    const deployments = resourcesOfType('Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(1);
    const [, deployment] = deployments[0]!;
    expect(deployment.Properties).toMatchObject({ DestinationBucketKeyPrefix: 'inputs/', Prune: true });
    expect(refersTo(deployment.Properties!['DestinationBucketName'], logicalId(platform().stack.dataStores.buckets.graphs))).toBe(true);
    // The asset it uploads (the zip of a folder of the cloud assembly) holds only the listed files.
    const [zipKey] = deployment.Properties!['SourceObjectKeys'] as string[];
    const assetFolder = join(outdir(), `asset.${zipKey!.replace(/\.zip$/, '')}`);
    expect(listFiles(assetFolder).sort()).toEqual([...inputs.files].sort());
  });

  it('publishes the parking datasets after the upload, with read-write access to the graphs bucket', () => {
    const inputs = platform().stack.staticInputs!;
    const trigger = platform().resources[logicalId(inputs.parkingTrigger)]!;
    expect(trigger.Type).toBe('Custom::Trigger');
    expect(triggerRuns(logicalId(inputs.parkingTrigger), inputs.parkingPublisher.function)).toBe(true);
    const dependsOn = JSON.stringify((platform().template.toJSON() as { Resources: Record<string, { DependsOn?: string[] }> }).Resources[logicalId(inputs.parkingTrigger)]!.DependsOn ?? []);
    expect(dependsOn).toContain(uploadId());
    const role = logicalId(inputs.parkingPublisher.function.role!);
    expect(actionsOn(role, logicalId(platform().stack.dataStores.buckets.graphs))).toContain('s3:PutObject');
  });

  it('starts the parking publisher without waiting for it, so bad parking data cannot roll back a deploy', () => {
    const inputs = platform().stack.staticInputs!;
    // A RequestResponse trigger fails the deploy when its function fails; an Event one only starts it.
    expect(platform().resources[logicalId(inputs.parkingTrigger)]!.Properties!['InvocationType']).toBe('Event');
  });

  it('alarms on any failed parking publish instead, notifying the alarm topic', () => {
    const inputs = platform().stack.staticInputs!;
    const alarm = platform().resources[logicalId(inputs.parkingPublishFailureAlarm)]!;
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/Lambda', MetricName: 'Errors', Statistic: 'Sum', Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching',
    });
    expect(refersTo(alarm.Properties!['Dimensions'], logicalId(inputs.parkingPublisher.function))).toBe(true);
    expect(notifiesAlarmTopic(alarm.Properties!['AlarmActions'])).toBe(true);
  });

  it('refuses to synthesize without the data folder, naming the context values', () => {
    expect(() => synthesizePlatform({ spokeDataPath: '/nonexistent/data' })).toThrow(/spokeDataPath.*skipStaticInputs=true/s);
  });

  it('synthesizes without the upload (and its parking trigger) only when told to', () => {
    const { stack, resources } = synthesizePlatform({ spokeDataPath: '/nonexistent/data', skipStaticInputs: 'true' });
    expect(stack.staticInputs).toBeNull();
    expect(Object.values(resources).filter((resource) => resource.Type === 'Custom::CDKBucketDeployment')).toEqual([]);
    // The builds still run after a deploy; the cities that need an input fail loudly without it.
    expect(Object.values(resources).filter((resource) => resource.Type === 'Custom::Trigger')).toHaveLength(1);
  });
});

/** The cloud assembly's folder (a temporary one for an App without outdir). */
function outdir(): string {
  return (platform().stack.node.root as unknown as { outdir: string }).outdir;
}
