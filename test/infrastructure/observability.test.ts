import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { keysOf } from '../../lib/naming.ts';
import { ACCESS_LOG_FIELDS, STAGE_THROTTLE } from '../../lib/rest-apis.ts';
import { SpokeFunction } from '../../lib/spoke-function.ts';
import { COUNTED_COMMON_RULES } from '../../lib/web-firewall.ts';
import { METRICS_NAMESPACE } from '../../platform/metric-catalogue.ts';
import { apiDefinitions } from '../../platform/endpoints.ts';
import { logicalId, notifiesAlarmTopic, platform, resourcesOfType, synthesizePlatform, type CfnResourceJson } from './platform-template.ts';

/** Tracing, logs, alarms, the dashboard and the optional WAF (lib/alarms.ts, dashboard.ts, rest-apis.ts, web-firewall.ts). */

const alarmResources = (): [string, CfnResourceJson][] =>
  Object.entries((Template.fromStack(platform().stack.alarms).toJSON() as { Resources: Record<string, CfnResourceJson> }).Resources)
    .filter(([, resource]) => resource.Type === 'AWS::CloudWatch::Alarm');
const spokeFunctions = (): SpokeFunction[] => platform().stack.node.findAll().filter((construct) => construct instanceof SpokeFunction);

describe('tracing', () => {
  it('is active on every function, which names the metric namespace of the catalogue', () => {
    const functions = spokeFunctions();
    expect(functions.length).toBeGreaterThan(30);
    for (const fn of functions) {
      const properties = platform().resources[logicalId(fn.function)]!.Properties!;
      expect(properties['TracingConfig'], fn.node.path).toEqual({ Mode: 'Active' });
      expect((properties['Environment'] as { Variables: Record<string, unknown> }).Variables['POWERTOOLS_METRICS_NAMESPACE']).toBe(METRICS_NAMESPACE);
    }
  });

  it('is on for every API stage, with JSON access logs, error-only execution logs without bodies, and throttling', () => {
    const stages = resourcesOfType('AWS::ApiGateway::Stage');
    expect(stages).toHaveLength(keysOf(apiDefinitions).length);
    for (const [, stage] of stages) {
      expect(stage.Properties).toMatchObject({
        TracingEnabled: true,
        MethodSettings: [{ LoggingLevel: 'ERROR', DataTraceEnabled: false, ThrottlingRateLimit: STAGE_THROTTLE.rateLimit, ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit }],
      });
      const format = JSON.parse((stage.Properties!['AccessLogSetting'] as { Format: string }).Format) as Record<string, string>;
      expect(format).toEqual(ACCESS_LOG_FIELDS);
      expect(Object.values(format)).toEqual(expect.arrayContaining([
        '$context.requestId', '$context.identity.apiKeyId', '$context.resourcePath', '$context.httpMethod', '$context.status',
        '$context.responseLatency', '$context.integrationLatency', '$context.identity.sourceIp',
      ]));
      expect(JSON.stringify(format)).not.toMatch(/apiKey"|\$context\.path|requestOverride|body/);
    }
  });

  it('gives API Gateway the account role it logs through, kept when the stack goes', () => {
    const [[, account]] = resourcesOfType('AWS::ApiGateway::Account') as [[string, CfnResourceJson]];
    expect(account.DeletionPolicy).toBe('Retain');
    for (const [, stage] of resourcesOfType('AWS::ApiGateway::Stage')) {
      expect((stage as unknown as { DependsOn: string[] }).DependsOn).toContain(logicalId(platform().stack.apis.cloudWatchAccount));
    }
  });

  it('keeps every log group of the stack for a retention, CDK\'s own functions\' included', () => {
    const groups = resourcesOfType('AWS::Logs::LogGroup');
    for (const [id, group] of groups) expect(group.Properties?.['RetentionInDays'], id).toBeGreaterThan(0);
    for (const [id, fn] of resourcesOfType('AWS::Lambda::Function')) {
      expect((fn.Properties?.['LoggingConfig'] as { LogGroup?: unknown } | undefined)?.LogGroup, id).toBeDefined();
    }
  });
});

describe('alarms', () => {
  it('watch the errors and throttles of every function, each notifying the one topic', () => {
    const alarms = alarmResources();
    for (const fn of spokeFunctions()) {
      const watched = platform().stack.alarms.functions.get(fn);
      expect(watched, fn.node.path).toBeDefined();
      for (const [metric, alarm] of [['Errors', watched!.errors], ['Throttles', watched!.throttles]] as const) {
        const [, resource] = alarms.find(([id]) => id === platform().stack.alarms.getLogicalId(alarm.node.defaultChild as never))!;
        expect(resource.Properties).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: metric, Threshold: 1, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
      }
    }
    for (const [, alarm] of alarms) expect(JSON.stringify(alarm.Properties?.['AlarmActions'])).toContain('Topic');
  });

  it('watch each API\'s 5xx rate and p99 latency', () => {
    const alarms = alarmResources().map(([, alarm]) => alarm.Properties!);
    for (const name of keysOf(apiDefinitions)) {
      expect(platform().stack.alarms.apis.get(name)).toBeDefined();
      const rate = alarms.find((alarm) => String(alarm['AlarmDescription']).includes(`of the ${name} API's requests answered 5xx`))!;
      const metrics = rate['Metrics'] as { Expression?: string; MetricStat?: { Metric: { MetricName: string } } }[];
      expect(metrics.find((metric) => metric.Expression)?.Expression).toMatch(/100 \* errors \/ requests/);
      expect(metrics.flatMap((metric) => (metric.MetricStat ? [metric.MetricStat.Metric.MetricName] : [])).sort()).toEqual(['5XXError', 'Count']);
      const latency = alarms.find((alarm) => String(alarm['AlarmDescription']).includes(`p99 latency of the ${name} API`))!;
      expect(latency).toMatchObject({ MetricName: 'Latency', ExtendedStatistic: 'p99', Namespace: 'AWS/ApiGateway' });
    }
  });

  it('watch each city\'s graph age, counting missing reports as breaching', () => {
    const alarms = alarmResources().map(([, alarm]) => alarm.Properties!);
    const cities = [...platform().stack.graphRebuild.cities.keys()];
    expect(cities.length).toBeGreaterThan(0);
    for (const city of cities) {
      const ages = alarms.filter((alarm) => alarm['MetricName'] === 'GraphAge' && JSON.stringify(alarm['Dimensions']) === JSON.stringify([{ Name: 'City', Value: city }]));
      expect(ages, city).toHaveLength(1);
      expect(ages[0]).toMatchObject({ Namespace: METRICS_NAMESPACE, Threshold: 36, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'breaching' });
      expect((ages[0]!['Period'] as number) * (ages[0]!['EvaluationPeriods'] as number)).toBe(36 * 3600);
    }
  });

  it('watch the report analysis backlog', () => {
    const alarm = alarmResources().map(([, resource]) => resource.Properties!).find((properties) => properties['MetricName'] === 'ApproximateAgeOfOldestMessage');
    expect(alarm).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 900 });
  });

  it('mail the on-call address only when alarmEmail is given', () => {
    expect(Template.fromStack(platform().stack.alarms).findResources('AWS::SNS::Subscription')).toEqual({});
    const withEmail = synthesizePlatform({ alarmEmail: 'ops@example.com' });
    Template.fromStack(withEmail.stack.alarms).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    expect(() => synthesizePlatform({ alarmEmail: 'not an address' })).toThrow(/alarmEmail must be an email address/);
  });

  it('publish through a topic that refuses plain HTTP, printed as output AlarmTopicArn', () => {
    const policies = Template.fromStack(platform().stack.alarms).findResources('AWS::SNS::TopicPolicy');
    expect(JSON.stringify(policies)).toContain('aws:SecureTransport');
    expect(notifiesAlarmTopic(resourcesOfType('AWS::CloudWatch::Alarm')[0]![1].Properties!['AlarmActions'])).toBe(true);
  });
});

describe('dashboard and outputs', () => {
  it('one dashboard with the sections of docs/operations.md, reading catalogue metrics', () => {
    const dashboards = resourcesOfType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]![1].Properties!['DashboardBody']);
    for (const section of ['## APIs', '## Routing: london', '## Reports', '## Riders and OAuth', '## Graph builds']) expect(body).toContain(section);
    for (const metric of ['RoutesPlanned', 'RoutesNull', 'SearchTime', 'StatesSettled', 'GraphLoadTime', 'ReportsByStatus', 'ReportTimeToAnalysed', 'AuthorizerRefusals', 'RateLimitRefusals', 'GraphAge']) {
      expect(body).toContain(metric);
    }
  });

  it('prints the outputs docs/operations.md names', () => {
    const outputs = Object.keys((platform().template.toJSON() as { Outputs: Record<string, unknown> }).Outputs);
    expect(outputs).toEqual(expect.arrayContaining(['AlarmTopicArn', 'DashboardUrl']));
    expect(outputs.filter((name) => /AlarmTopic/.test(name))).toEqual(['AlarmTopicArn']);
    expect(outputs).not.toContain('WebAclArn');
  });
});

describe('WAF', () => {
  it('is absent unless waf=true', () => {
    expect(resourcesOfType('AWS::WAFv2::WebACL')).toHaveLength(0);
  });

  it('with waf=true: AWS common rules counting large bodies, a per-IP rate rule, on both stages', () => {
    const withWaf = synthesizePlatform({ waf: 'true' });
    const acl = Object.values(withWaf.template.findResources('AWS::WAFv2::WebACL'))[0] as CfnResourceJson;
    const rules = acl.Properties!['Rules'] as { Statement: Record<string, { Name?: string; RuleActionOverrides?: { Name: string; ActionToUse: unknown }[]; AggregateKeyType?: string }> }[];
    const common = rules.find((rule) => rule.Statement['ManagedRuleGroupStatement']?.Name === 'AWSManagedRulesCommonRuleSet')!;
    expect(common.Statement['ManagedRuleGroupStatement']!.RuleActionOverrides).toEqual(COUNTED_COMMON_RULES.map((name) => ({ Name: name, ActionToUse: { Count: {} } })));
    expect(rules.find((rule) => rule.Statement['RateBasedStatement'])?.Statement['RateBasedStatement']?.AggregateKeyType).toBe('IP');
    const associations = Object.values(withWaf.template.findResources('AWS::WAFv2::WebACLAssociation')) as CfnResourceJson[];
    expect(associations).toHaveLength(keysOf(apiDefinitions).length);
    for (const association of associations) expect(JSON.stringify(association.Properties!['ResourceArn'])).toContain('/stages/');
    expect(Object.keys((withWaf.template.toJSON() as { Outputs: Record<string, unknown> }).Outputs)).toContain('WebAclArn');
  });
});
