import { endpoint } from '../http/endpoint.ts';
import { sourceProblem } from './attribution.ts';
import { reportSubmissionScope } from './quota.ts';
import { reportSubmission } from './request.ts';
import { submittedReport } from './response.ts';
import { submitReport } from './submit.ts';

/**
 * POST /reports/ (spec 4.4): an API key of any plan, a rider's own session, or an app's OAuth
 * access token for a rider. Answers as soon as the report is stored; analysis follows. An
 * `Idempotency-Key` makes a retry safe: the same key and body get the first answer again.
 */
export const handler = endpoint(
  {
    id: 'reports-submit',
    body: reportSubmission,
    response: submittedReport,
    callerRules: ({ body, principal }) => sourceProblem(principal, body.source),
    rateScope: ({ principal, headers }) => reportSubmissionScope(principal, headers),
  },
  async ({ body, principal, repeatable }) => {
    if (!principal) throw new Error('reports-submit reached without a principal');
    return { body: await submitReport(principal, body, repeatable) };
  },
);
