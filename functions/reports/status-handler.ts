import { endpoint } from '../http/endpoint.ts';
import { reportView } from './response.ts';
import { reportFor } from './status.ts';

/** GET /reports/{id} and /reports/{id}/ (spec 4.4): the caller's own report, else 404. */
export const handler = endpoint({ id: 'reports-status', response: reportView }, async ({ principal, pathParameters }) => {
  if (!principal) throw new Error('reports-status reached without a principal');
  return { body: await reportFor(principal, pathParameters.id ?? '') };
});
