import { SOURCE_SLUG_PATTERN } from '../auth/api-keys.ts';
import type { Principal } from '../auth/principal.ts';
import type { ReportItem } from './store.ts';

/**
 * Whose a report is, and who may read it back (spec 4.4, 5.4, 5.5):
 *
 * - A partner key's reports are attributed to its `source`; the key reads back every report
 *   submitted through the API under that source (by any of the partner's keys).
 * - Another key's reports are the key's; it reads back the reports it filed.
 * - A rider's own session files the rider's report; an OAuth access token files the rider's
 *   report too, attributed to the app that sent it. Either reads back only that rider's reports,
 *   whichever way the rider filed them ("My reports").
 *
 * Anything else answers 404, exactly as an unknown id does.
 */

export type Attribution = Pick<ReportItem, 'channel' | 'key_id' | 'source' | 'rider_id' | 'client_id'>;

export function attributionOf(principal: Principal): Attribution {
  switch (principal.kind) {
    case 'apikey':
      return { channel: 'api', key_id: principal.keyId, ...(principal.source ? { source: principal.source } : {}) };
    case 'rider':
      return { channel: 'rider', rider_id: principal.sub };
    case 'oauth':
      return { channel: 'app', rider_id: principal.sub, client_id: principal.clientId };
  }
}

/** The submitter as the audit trail names it: the key or the app, never the rider's id. */
export function submitterLabel(report: Attribution): string {
  switch (report.channel) {
    case 'api':
      return `api:${report.key_id}`;
    case 'rider':
      return 'rider';
    case 'app':
      return `app:${report.client_id}`;
  }
}

export function mayRead(principal: Principal, report: ReportItem): boolean {
  switch (principal.kind) {
    case 'apikey':
      if (report.channel !== 'api') return false;
      return principal.source ? report.source === principal.source : report.key_id === principal.keyId;
    case 'rider':
    case 'oauth':
      return report.rider_id !== undefined && report.rider_id === principal.sub;
  }
}

/**
 * What is wrong with the body's `source` for this caller, or null (spec 4.4): a partner key must
 * send the slug agreed for it; another key may send a well-formed slug, which changes nothing;
 * a rider's session or an app's token is never asked for one, and what it sends is ignored.
 */
export function sourceProblem(principal: Principal, source: unknown): string | null {
  if (principal.kind !== 'apikey') return null;
  if (source === undefined || source === null) {
    return principal.source ? `source: required for partner keys (this key's is "${principal.source}")` : null;
  }
  if (typeof source !== 'string' || !SOURCE_SLUG_PATTERN.test(source)) {
    return 'source: must be 2-32 characters of a-z, 0-9, _ and -';
  }
  if (principal.source && source !== principal.source) {
    return `source: must be "${principal.source}", the source agreed for this key`;
  }
  return null;
}
