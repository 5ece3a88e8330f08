import { Duration, NestedStack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { CityId } from '../core/cities/index.ts';
import type { ApiName } from '../platform/endpoints.ts';
import { pascalCase } from './naming.ts';
import { catalogueMetric } from './catalogue-metrics.ts';
import type { SpokeFunction } from './spoke-function.ts';

/** Context key of the on-call address: `cdk deploy -c alarmEmail=ops@example.com` subscribes it. */
export const ALARM_EMAIL_CONTEXT_KEY = 'alarmEmail';

/** Lambda and API Gateway publish every minute; five-minute periods smooth single slow requests. */
const PERIOD = Duration.minutes(5);

/**
 * A function alarms on errors or throttles in two of three five-minute periods: a lone failure
 * (one timed-out cold start) stays in the logs, a failure that persists for ten minutes pages.
 */
export const FUNCTION_ALARM = { evaluationPeriods: 3, datapointsToAlarm: 2 } as const;

/**
 * More than 5 % of an API's requests answered 5xx for ten minutes. Below 10 requests in a period
 * the rate reads 0, so one failed request at night pages no one (the function alarms still see it).
 */
export const API_SERVER_ERROR_RATE = { percent: 5, minimumRequests: 10, evaluationPeriods: 2 } as const;

/**
 * p99 latency above 8 s for fifteen minutes: a routing request on a warm graph answers in well
 * under a second (docs/benchmarks.md); cold graph loads pass, a slowness that stays does not.
 */
export const API_P99_LATENCY = { milliseconds: 8_000, evaluationPeriods: 3 } as const;

/**
 * A city's graph is stale when no build has published its newest source for 36 hours: a nightly
 * build missed and the next one failed too. Every build attempt reports GraphAge (daily, and
 * after deploys); six-hour periods with missing data breaching mean that 36 hours without any
 * report, or with none at or under 36, alarm ("no graph at all" when no build ever ran).
 */
export const GRAPH_AGE_ALARM = { hours: 36, period: Duration.hours(6), evaluationPeriods: 6 } as const;

/**
 * The oldest report waiting for analysis for more than 15 minutes, in two consecutive periods:
 * five tries of 3 minutes each would have dead-lettered a failing message by then, so a message
 * that old means the analysis is falling behind, not failing.
 */
export const REPORT_ANALYSIS_LAG = { seconds: 15 * 60, evaluationPeriods: 2 } as const;

export interface ApiAlarms {
  readonly serverErrorRate: Alarm;
  readonly p99Latency: Alarm;
}

export interface FunctionAlarms {
  readonly errors: Alarm;
  readonly throttles: Alarm;
}

/**
 * The platform's one alarm topic and the alarms that publish to it: every function's errors and
 * throttles, each API's 5xx rate and p99 latency, each city's graph age and the report analysis
 * backlog. The dead-letter and build-failure alarms of lib/worker-functions.ts and
 * lib/graph-rebuild.ts publish to the same topic. The `alarmEmail` context subscribes an address
 * (AWS mails it a confirmation link first).
 *
 * A nested stack of its own: two alarms per function would take the platform stack past
 * CloudFormation's 500 resources per stack, and it counts as one.
 */
export class PlatformAlarms extends NestedStack {
  readonly topic: Topic;
  readonly functions = new Map<SpokeFunction, FunctionAlarms>();
  readonly apis = new Map<ApiName, ApiAlarms>();
  readonly graphAge = new Map<CityId, Alarm>();
  private analysisLag: Alarm | undefined;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Spoke platform alarms', enforceSSL: true });
    const email: unknown = this.node.tryGetContext(ALARM_EMAIL_CONTEXT_KEY);
    if (email !== undefined && email !== '') {
      if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
        throw new Error(`Context ${ALARM_EMAIL_CONTEXT_KEY} must be an email address, not ${JSON.stringify(email)}`);
      }
      this.topic.addSubscription(new EmailSubscription(email));
    }
  }

  /** The report analysis backlog alarm, once watchReportAnalysis has made it. */
  get reportAnalysisLag(): Alarm | undefined {
    return this.analysisLag;
  }

  /** Errors and throttles of each function not watched yet (the stack passes all of them). */
  watchFunctions(functions: Iterable<SpokeFunction>): void {
    for (const fn of functions) {
      if (this.functions.has(fn)) continue;
      const id = pascalCase(fn.node.path.split('/').slice(1).join('-'));
      const name = fn.node.path.split('/').slice(1).join('/');
      const watch = (kind: string, metric: IMetric) =>
        this.alarm(`${id}${kind}`, {
          description: `${kind} of function ${name} in two of three 5-minute periods; see its log group`,
          metric,
          threshold: 1,
          comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          ...FUNCTION_ALARM,
          missing: TreatMissingData.NOT_BREACHING,
        });
      this.functions.set(fn, {
        errors: watch('Errors', fn.function.metricErrors({ period: PERIOD, statistic: 'Sum' })),
        throttles: watch('Throttles', fn.function.metricThrottles({ period: PERIOD, statistic: 'Sum' })),
      });
    }
  }

  watchApi(name: ApiName, api: RestApi): void {
    const stage = api.deploymentStage;
    const rate = new MathExpression({
      expression: `IF(requests >= ${API_SERVER_ERROR_RATE.minimumRequests}, 100 * errors / requests, 0)`,
      usingMetrics: {
        errors: stage.metricServerError({ period: PERIOD, statistic: 'Sum' }),
        requests: stage.metricCount({ period: PERIOD, statistic: 'Sum' }),
      },
      period: PERIOD,
      label: '5xx % of requests',
    });
    const id = pascalCase(name);
    this.apis.set(name, {
      serverErrorRate: this.alarm(`${id}ApiServerErrorRate`, {
        description: `More than ${API_SERVER_ERROR_RATE.percent} % of the ${name} API's requests answered 5xx for ten minutes`,
        metric: rate,
        threshold: API_SERVER_ERROR_RATE.percent,
        evaluationPeriods: API_SERVER_ERROR_RATE.evaluationPeriods,
        missing: TreatMissingData.NOT_BREACHING,
      }),
      p99Latency: this.alarm(`${id}ApiP99Latency`, {
        description: `p99 latency of the ${name} API above ${API_P99_LATENCY.milliseconds} ms for fifteen minutes`,
        metric: stage.metricLatency({ period: PERIOD, statistic: 'p99' }),
        threshold: API_P99_LATENCY.milliseconds,
        evaluationPeriods: API_P99_LATENCY.evaluationPeriods,
        missing: TreatMissingData.NOT_BREACHING,
      }),
    });
  }

  watchGraphAge(city: CityId): void {
    this.graphAge.set(city, this.alarm(`${pascalCase(city)}GraphAge`, {
      description: `No graph of ${city}'s newest source for ${GRAPH_AGE_ALARM.hours} hours, or no build reported at all: routing serves an old graph or none`,
      metric: catalogueMetric('GraphAge', { City: city }, { statistic: 'Minimum', period: GRAPH_AGE_ALARM.period }),
      threshold: GRAPH_AGE_ALARM.hours,
      evaluationPeriods: GRAPH_AGE_ALARM.evaluationPeriods,
      missing: TreatMissingData.BREACHING,
    }));
  }

  watchReportAnalysis(queue: IQueue): void {
    this.analysisLag = this.alarm('ReportAnalysisLag', {
      description: `A report has waited more than ${REPORT_ANALYSIS_LAG.seconds / 60} minutes for analysis: the analysis is falling behind`,
      metric: queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
      threshold: REPORT_ANALYSIS_LAG.seconds,
      evaluationPeriods: REPORT_ANALYSIS_LAG.evaluationPeriods,
      missing: TreatMissingData.NOT_BREACHING,
    });
  }

  private alarm(id: string, spec: AlarmSpec): Alarm {
    const alarm = new Alarm(this, id, {
      alarmDescription: spec.description,
      metric: spec.metric,
      threshold: spec.threshold,
      comparisonOperator: spec.comparison ?? ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: spec.evaluationPeriods,
      ...(spec.datapointsToAlarm ? { datapointsToAlarm: spec.datapointsToAlarm } : {}),
      treatMissingData: spec.missing,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    return alarm;
  }
}

interface AlarmSpec {
  readonly description: string;
  readonly metric: IMetric;
  readonly threshold: number;
  /** Above the threshold unless said otherwise. */
  readonly comparison?: ComparisonOperator;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm?: number;
  readonly missing: TreatMissingData;
}
