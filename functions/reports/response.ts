import { z } from 'zod';
import { ISSUE_TYPES } from './fields.ts';
import { REPORT_STATUSES } from './lifecycle.ts';

/**
 * The answers of POST /reports/ and GET /reports/{id}/ (spec 2.5, 4.4) as zod schemas, for the
 * OpenAPI documents (functions/openapi/), the handlers' result types and the contract tests.
 */

const isoTime = z.string().meta({ description: 'ISO 8601.' });

export const submittedReport = z
  .object({ id: z.uuid(), status: z.literal('received'), created_at: isoTime })
  .meta({ id: 'SubmittedReport', description: 'The report is stored; analysis follows within seconds.' });

export const reportView = z
  .object({
    id: z.uuid(),
    status: z.enum(REPORT_STATUSES).meta({ description: 'received, then in_review once analysed; a reviewer accepts, rejects or resolves it (docs/reports.md).' }),
    summary: z.string().nullable().meta({ description: 'One-line outcome; null until analysis completes.' }),
    issue_type: z.enum(ISSUE_TYPES),
    created_at: isoTime,
    updated_at: isoTime.meta({ description: 'The latest status change; equals created_at until the first.' }),
  })
  .meta({ id: 'Report' });
