import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import { queues } from '../../platform/resources.ts';
import { workerDefinition, workers } from '../../platform/workers.ts';
import { logicalId, notifiesAlarmTopic, platform, refersTo, resourcesOfType } from './platform-template.ts';

/** The report pipeline's background functions in the template (lib/worker-functions.ts). */

const workerFunction = (id: string): NodejsFunction => platform().stack.workers.forWorker(id).function;

describe('report analysis consumer', () => {
  it('consumes the analysis queue in batches, reporting partial batch failures', () => {
    const mappings = resourcesOfType('AWS::Lambda::EventSourceMapping').filter(([, mapping]) =>
      refersTo(mapping.Properties?.['EventSourceArn'], logicalId(platform().stack.dataStores.queues.reportAnalysis.queue)));
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0]!;
    expect(refersTo(mapping.Properties?.['FunctionName'], logicalId(workerFunction('report-analysis')))).toBe(true);
    expect(refersTo(mapping.Properties?.['EventSourceArn'], logicalId(platform().stack.dataStores.queues.reportAnalysis.queue))).toBe(true);
    expect(mapping.Properties).toMatchObject({
      BatchSize: queues.reportAnalysis.batchSize,
      MaximumBatchingWindowInSeconds: queues.reportAnalysis.maxBatchingWindowSeconds,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('gives up on a message after maxReceiveCount tries: the queue redrives it to its dead-letter queue', () => {
    const { queue, deadLetterQueue } = platform().stack.dataStores.queues.reportAnalysis;
    const properties = platform().resources[logicalId(queue)]!.Properties!;
    expect(properties['VisibilityTimeout']).toBe(queues.reportAnalysis.visibilityTimeoutSeconds);
    expect(properties['RedrivePolicy']).toMatchObject({ maxReceiveCount: queues.reportAnalysis.maxReceiveCount });
    expect(refersTo(properties['RedrivePolicy'], logicalId(deadLetterQueue))).toBe(true);
  });

  it('runs no longer than a sixth of the visibility timeout less the batching window', () => {
    const timeout = platform().resources[logicalId(workerFunction('report-analysis'))]!.Properties!['Timeout'] as number;
    expect(timeout).toBe(workerDefinition('report-analysis').timeoutSeconds);
    expect(timeout * 6 + queues.reportAnalysis.maxBatchingWindowSeconds).toBeLessThanOrEqual(queues.reportAnalysis.visibilityTimeoutSeconds);
  });

  it('alarms on any message in the dead-letter queue, notifying the alarm topic', () => {
    const { deadLetterQueue } = platform().stack.dataStores.queues.reportAnalysis;
    const alarms = resourcesOfType('AWS::CloudWatch::Alarm').filter(([, alarm]) => refersTo(alarm.Properties?.['Dimensions'] ?? null, logicalId(deadLetterQueue)));
    expect(alarms).toHaveLength(1);
    const [, alarm] = alarms[0]!;
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
    expect(notifiesAlarmTopic(alarm.Properties?.['AlarmActions'])).toBe(true);
  });
});

describe('report outbox sweeper', () => {
  it('runs every minute from an EventBridge rule', () => {
    platform().template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [{ Arn: { 'Fn::GetAtt': [logicalId(workerFunction('report-outbox')), 'Arn'] } }],
    });
  });

  it('may send to the analysis queue but not consume it', () => {
    const role = logicalId(workerFunction('report-outbox').role!);
    const statements = resourcesOfType('AWS::IAM::Policy')
      .filter(([, policy]) => refersTo(policy.Properties?.['Roles'], role))
      .flatMap(([, policy]) => (policy.Properties?.['PolicyDocument'] as { Statement: { Action: string | string[] }[] }).Statement)
      .flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));
    expect(statements).toContain('sqs:SendMessage');
    expect(statements).not.toContain('sqs:ReceiveMessage');
  });
});

describe('workers', () => {
  it.each(workers.map((worker) => [worker.id, worker] as const))('%s: memory and timeout from workers.ts', (id, worker) => {
    const properties = platform().resources[logicalId(workerFunction(id))]!.Properties!;
    if (worker.memoryMb) expect(properties['MemorySize']).toBe(worker.memoryMb);
    if (worker.timeoutSeconds) expect(properties['Timeout']).toBe(worker.timeoutSeconds);
  });
});
