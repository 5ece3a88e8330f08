import type { Principal } from '../auth/principal.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { IssueType } from './fields.ts';
import { mayRead } from './attribution.ts';
import type { ReportStatus } from './lifecycle.ts';
import { getReport } from './store.ts';

/** GET /reports/{id} (spec 2.5, 4.4): exactly these fields. */
export interface ReportView {
  id: string;
  status: ReportStatus;
  summary: string | null;
  issue_type: IssueType;
  created_at: string;
  updated_at: string;
}

export const REPORT_NOT_FOUND = 'Report not found';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The report as its submitter sees it. An id that is not a UUID, an unknown id, and a report the
 * caller may not read all answer the same 404 (spec 4.4), so nothing tells them apart.
 */
export async function reportFor(principal: Principal, id: string): Promise<ReportView> {
  const report = UUID_PATTERN.test(id) ? await getReport(id.toLowerCase()) : null;
  if (!report || !mayRead(principal, report)) throw new NotFoundError(REPORT_NOT_FOUND);
  return {
    id: report.report_id,
    status: report.status,
    summary: report.summary,
    issue_type: report.issue_type,
    created_at: report.created_at,
    updated_at: report.updated_at,
  };
}
