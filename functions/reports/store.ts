import { randomUUID } from 'node:crypto';
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { CityId } from '../../core/cities/index.ts';
import type { SafetyClass } from '../../core/graph/flags.ts';
import { dynamo } from '../../platform/aws.ts';
import { recordMetric } from '../../platform/metrics.ts';
import { tableName } from '../../platform/resources.ts';
import type { IssueType } from './fields.ts';
import { MOVES, type MoveName, type ReportStatus } from './lifecycle.ts';
import { queryAll } from '../../platform/dynamo-pages.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * Reports and their audit trail in DynamoDB (docs/data-model.md, "Road reports"). A report is one
 * item of the `reports` table; every status change also writes one entry of `report-audit`, in the
 * same transaction, so the trail can never disagree with the status.
 */

/** How a report arrived (spec 4.4, 5.5): through the API with a key, a rider's own session, or an app acting for a rider. */
export type ReportChannel = 'api' | 'rider' | 'app';

/** Where the analysis put the report: the nearest road of the city's graph. */
export interface LocatedRoad {
  /** OSM way id. */
  way_id: number;
  /** Its name (or reference); null for an unnamed way. */
  name: string | null;
  safety_class: SafetyClass;
  /** Metres from the filed location to the road. */
  distance_metres: number;
  /** The nearest point of the road, [lon, lat]. */
  point: [number, number];
}

export interface ReportAnalysis {
  analysed_at: string;
  /** The recognised subtype classified the report; otherwise a reviewer classifies it. */
  classified: boolean;
  /** Null when the report is outside the covered cities or no usable road is within reach. */
  road: LocatedRoad | null;
  /** Why `road` is null: outside the covered cities, no usable road within reach, or the city's graph could not be loaded. */
  unlocated: 'outside_cities' | 'no_road_nearby' | 'no_graph' | null;
  /** How the road the reporter named compares with the located one. */
  road_name_check: 'matches' | 'differs' | 'not_given' | 'not_located';
  /** The first report of the same problem nearby, when this one repeats it. */
  duplicate_of: string | null;
  /** Earlier reports of the same problem nearby that are still open. */
  similar_open_reports: number;
}

export interface ReviewRecord {
  by: string;
  at: string;
  note: string | null;
  /** ISO instant an accepted temporary problem ends (`--until`), or null. */
  until: string | null;
}

export interface ReportItem {
  report_id: string;
  status: ReportStatus;
  created_at: string;
  updated_at: string;
  issue_type: IssueType;
  issue_subtype: string | null;
  location: [number, number];
  description: string | null;
  road_name: string | null;
  /** The covered city the location is in, or null outside all of them. */
  city: CityId | null;
  channel: ReportChannel;
  /** The API key that filed it (channel `api`). */
  key_id?: string;
  /** The partner source it is attributed to (partner keys). */
  source?: string;
  /** The rider whose report it is (channels `rider` and `app`): their identity-provider user id. */
  rider_id?: string;
  /** The third-party app that filed it for the rider (channel `app`). */
  client_id?: string;
  summary: string | null;
  analysis?: ReportAnalysis;
  /** `<city>:<way id>` of the located road, for finding reports of the same road (`by-way`). */
  way_key?: string;
  review?: ReviewRecord;
  /** Who recorded that the problem is gone, when, and why (status `resolved`). */
  resolution?: { by: string; at: string; note: string };
  /** Present while the report has not been handed to the analysis queue (`by-outbox`). */
  outbox?: typeof OUTBOX_PENDING;
  outbox_due_at?: string;
  /** Filed with an Idempotency-Key: SHA-256 of the request body, to tell a repeat from a reused key. */
  request_fingerprint?: string;
}

export interface AuditEntry {
  report_id: string;
  /** `<ISO time>#<random>`: entries sort by time. */
  entry_id: string;
  at: string;
  /** Who made the change: `analysis`, `reviewer:<name>`, or the submitter (`api:<key id>`, `rider`, `app:<client id>`). */
  actor: string;
  action: 'submit' | MoveName;
  from: ReportStatus | null;
  to: ReportStatus;
  note?: string;
  until?: string | null;
}

export const OUTBOX_PENDING = 'pending';

/**
 * The time of a status change: now, but always after the report's last change, so `updated_at`
 * moves forward even when clocks of two functions disagree by a few milliseconds.
 */
export function changeTime(report: Pick<ReportItem, 'updated_at'>, at: Date): string {
  return new Date(Math.max(at.getTime(), Date.parse(report.updated_at) + 1)).toISOString();
}

const reports = () => tableName('reports');
const audit = () => tableName('reportAudit');

export function auditEntry(input: Omit<AuditEntry, 'entry_id'>): AuditEntry {
  return { ...input, entry_id: `${input.at}#${randomUUID().slice(0, 8)}` };
}

/** Stores a new report and its first audit entry together; false, and nothing written, when a report with its id is already stored. */
export async function insertReport(report: ReportItem, entry: AuditEntry): Promise<boolean> {
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: reports(), Item: report, ConditionExpression: 'attribute_not_exists(report_id)' } },
          { Put: { TableName: audit(), Item: entry } },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (conditionFailed(error, 0)) return false;
    throw error;
  }
}

export async function getReport(reportId: string): Promise<ReportItem | null> {
  const result = await dynamo().send(new GetCommand({ TableName: reports(), Key: { report_id: reportId }, ConsistentRead: true }));
  return (result.Item as ReportItem | undefined) ?? null;
}

/** The report has been handed to the queue: the sweeper leaves it alone. */
export async function clearOutbox(reportId: string): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: reports(),
        Key: { report_id: reportId },
        UpdateExpression: 'REMOVE outbox, outbox_due_at',
        ConditionExpression: 'attribute_exists(report_id)',
      }),
    );
  } catch (error) {
    if (!conditionFailed(error)) throw error;
  }
}

/** Reports whose hand-over to the queue was due by `dueBy` and has not happened, oldest first. */
export async function reportsDueInOutbox(dueBy: string, limit: number): Promise<ReportItem[]> {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: reports(),
      IndexName: 'by-outbox',
      KeyConditionExpression: 'outbox = :pending AND outbox_due_at <= :due',
      ExpressionAttributeValues: { ':pending': OUTBOX_PENDING, ':due': dueBy },
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as ReportItem[];
}

/** Reports with `status`, most recently changed first; a page of at most `limit`. */
export async function reportsWithStatus(status: ReportStatus, limit: number): Promise<ReportItem[]> {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: reports(),
      IndexName: 'by-status',
      KeyConditionExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as ReportItem[];
}

/** Reports located on one way (`<city>:<way id>`) filed at or after `since`, oldest first. */
export function reportsOnWay(wayKey: string, since: string): Promise<ReportItem[]> {
  return queryAll<ReportItem>({
    TableName: reports(),
    IndexName: 'by-way',
    KeyConditionExpression: 'way_key = :way AND created_at >= :since',
    ExpressionAttributeValues: { ':way': wayKey, ':since': since },
  });
}

/** A report's audit trail, oldest first. */
export async function auditTrail(reportId: string): Promise<AuditEntry[]> {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: audit(),
      KeyConditionExpression: 'report_id = :id',
      ExpressionAttributeValues: { ':id': reportId },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []) as AuditEntry[];
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface StatusChange {
  reportId: string;
  move: MoveName;
  at: string;
  actor: string;
  /** Attributes set on the report beside `status` and `updated_at`. */
  set?: Record<string, unknown>;
  /** Attributes removed from the report. */
  remove?: readonly string[];
  note?: string;
  until?: string | null;
  /** Other writes that must happen with the change or not at all (the routing avoidance). */
  alongside?: readonly TransactItem[];
}

/**
 * Makes one move of the lifecycle: the report's status changes from the move's `from` to its `to`
 * (only if it still is `from`), its audit entry is written, and so is whatever goes `alongside`,
 * all in one transaction. False when the report is not (or no longer) in `from`: the move was
 * already made, or another one was.
 */
export async function changeStatus(change: StatusChange): Promise<boolean> {
  const { from, to } = MOVES[change.move];
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':from': from, ':to': to, ':at': change.at };
  const assignments = ['#status = :to', 'updated_at = :at'];
  for (const [index, [attribute, value]] of Object.entries(change.set ?? {}).entries()) {
    names[`#s${index}`] = attribute;
    values[`:s${index}`] = value;
    assignments.push(`#s${index} = :s${index}`);
  }
  const removals = (change.remove ?? []).map((attribute, index) => {
    names[`#r${index}`] = attribute;
    return `#r${index}`;
  });
  const entry = auditEntry({
    report_id: change.reportId,
    at: change.at,
    actor: change.actor,
    action: change.move,
    from,
    to,
    ...(change.note ? { note: change.note } : {}),
    ...(change.until !== undefined ? { until: change.until } : {}),
  });
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: reports(),
              Key: { report_id: change.reportId },
              UpdateExpression: `SET ${assignments.join(', ')}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
              ConditionExpression: '#status = :from',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
          { Put: { TableName: audit(), Item: entry } },
          ...(change.alongside ?? []),
        ],
      }),
    );
    recordMetric('ReportsByStatus', 1, { Status: to });
    return true;
  } catch (error) {
    if (conditionFailed(error, 0)) return false;
    throw error;
  }
}
