/**
 * Every metric the platform emits, named once: the functions write them (CloudWatch Embedded
 * Metric Format through Powertools, platform/metrics.ts), the stack's alarms and
 * dashboard read them (lib/), and the local platform's `npm run admin -- metrics` shows them.
 * A metric's dimensions are the only ones it is ever emitted with, so alarms and dashboard
 * widgets name exactly the series that exist.
 */

/** The CloudWatch namespace of every platform metric. */
export const METRICS_NAMESPACE = 'Spoke';

/**
 * The dimensions metrics are split by. Values are low-cardinality: never ids, keys or riders.
 * `function_name` is Powertools' own, on its cold-start metric: the Lambda function's name.
 */
export type MetricDimension = 'City' | 'Costing' | 'Endpoint' | 'Reason' | 'Status' | 'Plan' | 'function_name';

/**
 * GraphAge of a city that has no graph at all: larger than any real age (a year and more), so an
 * alarm on age catches it, and plainly not an age on a graph.
 */
export const NO_GRAPH_AGE_HOURS = 10_000;

export type MetricUnit = 'Count' | 'Milliseconds' | 'Bytes' | 'Hours';

export interface MetricDefinition {
  readonly unit: MetricUnit;
  readonly dimensions: readonly MetricDimension[];
  readonly purpose: string;
}

export const metricCatalogue = {
  RoutesPlanned: { unit: 'Count', dimensions: ['City', 'Costing'], purpose: 'Legs planned with a route, by any endpoint that plans routes' },
  RoutesNull: { unit: 'Count', dimensions: ['City', 'Reason'], purpose: 'Routes planned null (directions, explain-supersafe, multi-modal legs), by the reason the answer gives (no_route_reason)' },
  SnapFailures: { unit: 'Count', dimensions: ['City'], purpose: 'Coordinates that could not be snapped to the graph' },
  SearchTime: { unit: 'Milliseconds', dimensions: ['City', 'Costing'], purpose: 'Time to snap, search and guide one route (all its legs where a directions request has stops)' },
  StatesSettled: { unit: 'Count', dimensions: ['City', 'Costing'], purpose: 'Search states settled for one leg' },
  GraphLoadTime: { unit: 'Milliseconds', dimensions: ['City'], purpose: 'Bytes to routable for a graph a container loads' },
  GraphBytes: { unit: 'Bytes', dimensions: ['City'], purpose: 'Size of a graph a container loads' },
  GraphAge: {
    unit: 'Hours',
    dimensions: ['City'],
    purpose: `Hours a city has gone without a graph of its newest source (0: up to date; ${NO_GRAPH_AGE_HOURS}: no graph at all); emitted by every build attempt`,
  },
  ReportsByStatus: { unit: 'Count', dimensions: ['Status'], purpose: 'Reports entering each status' },
  ReportTimeToAnalysed: { unit: 'Milliseconds', dimensions: [], purpose: 'From submission to in_review' },
  IdempotentReplays: { unit: 'Count', dimensions: ['Endpoint'], purpose: 'Requests answered with a stored first answer' },
  IdempotentInProgress: { unit: 'Count', dimensions: ['Endpoint'], purpose: 'Requests refused 409 while the first is running' },
  AuthorizerRefusals: { unit: 'Count', dimensions: ['Reason'], purpose: 'Credentials the authorizer refused, by why' },
  RateLimitRefusals: { unit: 'Count', dimensions: ['Plan'], purpose: 'Requests refused 429, by usage plan' },
  ColdStart: { unit: 'Count', dimensions: ['function_name'], purpose: "A container's first invocation (Powertools' own metric)" },
} as const satisfies Record<string, MetricDefinition>;

export type MetricName = keyof typeof metricCatalogue;
