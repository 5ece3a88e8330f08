import type { CfnElement } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { cityIds } from '../../core/cities/index.ts';
import { buckets } from '../../platform/resources.ts';
import { actionsOn, logicalId, platform, resourcesOfType, synthesizePlatform } from './platform-template.ts';

/** The bike-share ingestion in the template: a function and a one-minute schedule per city. */

describe('bike-share ingestion', () => {
  const ingesters = () => platform().stack.bikeShare.ingesters;

  it('schedules each city every minute with its own function and the city as input', () => {
    const ingesterArns = cityIds.map((city) => JSON.stringify({ 'Fn::GetAtt': [logicalId(ingesters()[city].function), 'Arn'] }));
    const targetsAnIngester = (rule: { Properties?: Record<string, unknown> }) =>
      (rule.Properties?.['Targets'] as { Arn: unknown }[] | undefined)?.some((target) => ingesterArns.includes(JSON.stringify(target.Arn)));
    // Other work runs every minute too (the reports outbox sweeper): only the ingestion's rules count here.
    const rules = resourcesOfType('AWS::Events::Rule').filter(([, rule]) => rule.Properties?.['ScheduleExpression'] === 'rate(1 minute)' && targetsAnIngester(rule));
    expect(rules).toHaveLength(cityIds.length);
    for (const city of cityIds) {
      const target = rules
        .flatMap(([, rule]) => rule.Properties?.['Targets'] as { Arn: unknown; Input: string; RetryPolicy?: unknown }[])
        .find((candidate) => JSON.stringify(candidate.Arn) === JSON.stringify({ 'Fn::GetAtt': [logicalId(ingesters()[city].function), 'Arn'] }));
      expect(target, city).toBeDefined();
      expect(JSON.parse(target!.Input)).toEqual({ city });
      expect(target!.RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
    }
  });

  it('runs within the minute, reserves no concurrency by default, and writes only the bikeshare bucket', () => {
    const { dataStores } = platform().stack;
    for (const city of cityIds) {
      const fn = ingesters()[city].function;
      const properties = platform().resources[logicalId(fn)]!.Properties!;
      expect(properties).toMatchObject({ Timeout: 50 });
      expect(properties).not.toHaveProperty('ReservedConcurrentExecutions');
      expect((properties['Environment'] as { Variables: Record<string, unknown> }).Variables[buckets.bikeshare.envVar]).toEqual({
        Ref: logicalId(dataStores.buckets.bikeshare),
      });
      expect(actionsOn(logicalId(fn.role!), logicalId(dataStores.buckets.bikeshare))).toContain('s3:PutObject');
    }
    // Readers only read.
    const nearby = platform().stack.functions.forEndpoint('bikes-nearby');
    const actions = actionsOn(logicalId(nearby.role!), logicalId(dataStores.buckets.bikeshare));
    expect(actions).toContain('s3:GetObject*');
    expect(actions).not.toContain('s3:PutObject');
  });

  it('reserves one concurrent execution per city with the bikeShareReservedConcurrency context flag', () => {
    const { stack, template } = synthesizePlatform({ bikeShareReservedConcurrency: 'true' });
    for (const city of cityIds) {
      const id = stack.getLogicalId(stack.bikeShare.ingesters[city].function.node.defaultChild as CfnElement);
      expect(template.toJSON().Resources[id].Properties.ReservedConcurrentExecutions, city).toBe(1);
    }
  });

  it('takes other feed URLs from the bikeShareFeeds context value, and refuses bad ones', () => {
    const { stack, template } = synthesizePlatform({ bikeShareFeeds: '{"citi-bike":"https://gbfs.lyft.com/gbfs/2.3/bkn/gbfs.json"}' });
    const id = stack.getLogicalId(stack.bikeShare.ingesters['new-york'].function.node.defaultChild as CfnElement);
    expect(template.toJSON().Resources[id].Properties.Environment.Variables.BIKESHARE_FEEDS).toBe('{"citi-bike":"https://gbfs.lyft.com/gbfs/2.3/bkn/gbfs.json"}');
    expect(() => synthesizePlatform({ bikeShareFeeds: '{"velib":"https://example.org/gbfs.json"}' })).toThrow(/bikeShareFeeds: .*unknown system velib/);
    expect(() => synthesizePlatform({ bikeShareFeeds: '{"citi-bike":"ftp://example.org"}' })).toThrow(/bikeShareFeeds/);
  });
});
