import { App, Duration, Stack } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { consumeQueue, minimumVisibilityTimeoutSeconds, VISIBILITY_TIMEOUTS_PER_FUNCTION_TIMEOUT } from '../../lib/spoke-function.ts';
import { platform, resourcesOfType } from './platform-template.ts';

/** Every SQS event source of the stack against AWS's visibility-timeout guidance (lib/spoke-function.ts). */

/** The logical id a Ref or Fn::GetAtt in the template names. */
function referencedId(value: unknown): string {
  const reference = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = reference.Ref ?? reference['Fn::GetAtt']?.[0];
  if (!id) throw new Error(`Not a reference: ${JSON.stringify(value)}`);
  return id;
}

describe('queue visibility timeouts', () => {
  const mappings = () => resourcesOfType('AWS::Lambda::EventSourceMapping').filter(([, mapping]) =>
    platform().resources[referencedId(mapping.Properties!['EventSourceArn'])]?.Type === 'AWS::SQS::Queue');

  it('the stack consumes the report-analysis queue and one build queue per city', () => {
    expect(mappings().length).toBe(1 + platform().stack.graphRebuild.cities.size);
  });

  it(`every consumed queue hides a message for at least ${VISIBILITY_TIMEOUTS_PER_FUNCTION_TIMEOUT} times its function's timeout plus the batching window`, () => {
    for (const [id, mapping] of mappings()) {
      const queue = platform().resources[referencedId(mapping.Properties!['EventSourceArn'])]!;
      const consumer = platform().resources[referencedId(mapping.Properties!['FunctionName'])]!;
      const timeout = consumer.Properties!['Timeout'] as number;
      const window = (mapping.Properties!['MaximumBatchingWindowInSeconds'] as number | undefined) ?? 0;
      const visibility = queue.Properties!['VisibilityTimeout'] as number;
      expect(visibility, id).toBeGreaterThanOrEqual(VISIBILITY_TIMEOUTS_PER_FUNCTION_TIMEOUT * timeout + window);
    }
  });

  it('synthesis refuses a consumer whose queue hides messages for less', () => {
    const stack = new Stack(new App(), 'Check');
    const fn = new LambdaFunction(stack, 'Consumer', {
      runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('export const handler = () => {}'), timeout: Duration.seconds(30),
    });
    const queue = new Queue(stack, 'Queue', { visibilityTimeout: Duration.seconds(180) });
    const consumption = { queue, queueName: 'Queue', batchSize: 10, maxBatchingWindowSeconds: 2 };
    expect(minimumVisibilityTimeoutSeconds(30, 2)).toBe(182);
    // 180 s was the analysis queue's setting before its batching window was counted.
    expect(() => consumeQueue(fn, { ...consumption, visibilityTimeoutSeconds: 180 })).toThrow(/at least 182 s/);
    expect(() => consumeQueue(fn, { ...consumption, visibilityTimeoutSeconds: 182 })).not.toThrow();
  });
});
