import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Dashboard, GraphWidget, TextWidget, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { CityId } from '../core/cities/index.ts';
import { endpoints, type ApiName } from '../platform/endpoints.ts';
import type { EndpointFunctions } from './endpoint-functions.ts';
import type { CityBuild } from './graph-rebuild.ts';
import { entriesOf } from './naming.ts';
import { catalogueMetric, catalogueMetricSearch } from './catalogue-metrics.ts';
import type { SpokeFunction } from './spoke-function.ts';

const PERIOD = Duration.minutes(5);
/** GraphAge is reported once per build attempt, so hours-long points show it without gaps. */
const GRAPH_AGE_PERIOD = Duration.hours(1);
/** A full-width row holds four widgets of six columns. */
const WIDGET = { width: 6, height: 6 } as const;
/** Endpoints whose functions the riders-and-OAuth section shows, by id prefix (endpoints.ts). */
const RIDER_AND_OAUTH_ENDPOINT_PREFIXES = ['user-', 'oauth-'] as const;

export interface OperationsDashboardProps {
  readonly cities: readonly CityId[];
  readonly apis: Readonly<Record<ApiName, RestApi>>;
  readonly functions: EndpointFunctions;
  readonly reportAnalysis: { readonly queue: Queue; readonly deadLetterQueue: Queue; readonly consumer: SpokeFunction };
  readonly builds: ReadonlyMap<CityId, CityBuild>;
}

/**
 * One CloudWatch dashboard of the platform, a section a row or more: the APIs, routing per city,
 * reports, riders and OAuth, graph builds. The platform's own metrics are read through
 * lib/catalogue-metrics.ts, so every widget names a series the functions emit.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.days(1) });
    this.section('APIs', apiWidgets(props.apis));
    for (const city of props.cities) this.section(`Routing: ${city}`, routingWidgets(city));
    this.section('Reports', reportWidgets(props.reportAnalysis));
    this.section('Riders and OAuth', riderWidgets(props.functions));
    this.section('Graph builds', buildWidgets(props.builds));
  }

  private section(title: string, widgets: IWidget[]): void {
    this.dashboard.addWidgets(new TextWidget({ markdown: `## ${title}`, width: 24, height: 1 }));
    for (let start = 0; start < widgets.length; start += 4) this.dashboard.addWidgets(...widgets.slice(start, start + 4));
  }
}

const graph = (title: string, left: IMetric[], right: IMetric[] = []): GraphWidget =>
  new GraphWidget({ title, left, right, ...WIDGET });

function apiWidgets(apis: Readonly<Record<ApiName, RestApi>>): IWidget[] {
  return entriesOf(apis).flatMap(([name, api]) => {
    const stage = api.deploymentStage;
    return [
      graph(`${name}: requests and errors`, [
        stage.metricCount({ period: PERIOD, statistic: 'Sum', label: 'requests' }),
        stage.metricClientError({ period: PERIOD, statistic: 'Sum', label: '4xx' }),
        stage.metricServerError({ period: PERIOD, statistic: 'Sum', label: '5xx' }),
      ]),
      graph(`${name}: latency`, ['p50', 'p99'].map((statistic) => stage.metricLatency({ period: PERIOD, statistic, label: statistic }))),
    ];
  });
}

function routingWidgets(city: CityId): IWidget[] {
  const sum = { statistic: 'Sum', period: PERIOD };
  const p95 = { statistic: 'p95', period: PERIOD };
  return [
    graph(`${city}: routes planned (by costing) and null (by no_route_reason)`, [
      catalogueMetricSearch('RoutesPlanned', { City: city }, sum),
      catalogueMetricSearch('RoutesNull', { City: city }, sum),
    ]),
    graph(`${city}: search time p95 (ms, by costing)`, [catalogueMetricSearch('SearchTime', { City: city }, p95)]),
    graph(`${city}: states settled p95 (by costing)`, [catalogueMetricSearch('StatesSettled', { City: city }, p95)]),
    graph(`${city}: graph load time (ms)`, [
      catalogueMetric('GraphLoadTime', { City: city }, { statistic: 'Maximum', period: PERIOD, label: 'max' }),
    ]),
  ];
}

function reportWidgets(reports: OperationsDashboardProps['reportAnalysis']): IWidget[] {
  return [
    graph('Reports entering each status', [catalogueMetricSearch('ReportsByStatus', {}, { statistic: 'Sum', period: PERIOD })]),
    graph('Report time to analysed (ms)', ['p50', 'p90', 'Maximum'].map((statistic) =>
      catalogueMetric('ReportTimeToAnalysed', {}, { statistic, period: PERIOD, label: statistic }))),
    graph('Analysis queue: waiting (left), oldest age s (right)', [
      reports.queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: 'waiting' }),
      reports.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: 'dead letters' }),
    ], [reports.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum', label: 'oldest (s)' })]),
    functionWidget('Analysis function', { 'report-analysis': reports.consumer.function }),
  ];
}

/** Invocations and errors (left) and p95 duration in ms (right), one line per function. */
function functionWidget(title: string, functions: Record<string, IFunction>): GraphWidget {
  const named = Object.entries(functions);
  return graph(title, named.flatMap(([name, fn]) => [
    fn.metricInvocations({ period: PERIOD, statistic: 'Sum', label: `${name} invocations` }),
    fn.metricErrors({ period: PERIOD, statistic: 'Sum', label: `${name} errors` }),
  ]), named.map(([name, fn]) => fn.metricDuration({ period: PERIOD, statistic: 'p95', label: `${name} p95 ms` })));
}

function riderWidgets(functions: EndpointFunctions): IWidget[] {
  const byPrefix = (prefix: string): Record<string, IFunction> => Object.fromEntries(endpoints
    .filter((endpoint) => endpoint.id.startsWith(prefix))
    .map((endpoint) => [endpoint.id, functions.forEndpoint(endpoint.id)]));
  const [riders, oauth] = RIDER_AND_OAUTH_ENDPOINT_PREFIXES.map(byPrefix);
  const sum = { statistic: 'Sum', period: PERIOD };
  return [
    functionWidget('Rider functions', riders!),
    functionWidget('OAuth functions and the authorizer', { ...oauth, authorizer: functions.authorizer.function }),
    graph('Authorizer refusals (by reason)', [catalogueMetricSearch('AuthorizerRefusals', {}, sum)]),
    graph('Rate-limit refusals (by plan)', [catalogueMetricSearch('RateLimitRefusals', {}, sum)]),
  ];
}

function buildWidgets(builds: ReadonlyMap<CityId, CityBuild>): IWidget[] {
  const cities = [...builds];
  return [
    graph('Graph age (hours; alarms above 36)', cities.map(([city]) =>
      catalogueMetric('GraphAge', { City: city }, { statistic: 'Maximum', period: GRAPH_AGE_PERIOD, label: city }))),
    graph('Build errors (left), duration ms (right)',
      cities.map(([city, build]) => build.builder.function.metricErrors({ period: PERIOD, statistic: 'Sum', label: `${city} errors` })),
      cities.map(([city, build]) => build.builder.function.metricDuration({ period: PERIOD, statistic: 'Maximum', label: `${city} duration` }))),
    graph('Build dead letters', cities.map(([city, build]) =>
      build.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: city }))),
  ];
}
