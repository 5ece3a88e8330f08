import { admission } from '../../auth/admission.ts';
import type { EndpointDefinition } from '../../../platform/endpoints.ts';
import { HttpError } from '../errors.ts';
import { httpStateOf, type HttpMiddleware } from './http-state.ts';

/**
 * The kinds of caller the endpoint admits (functions/auth/admission.ts). The authorizer already
 * refused everything that answers 401; what reaches here and is refused is the 403 only a
 * function can answer (an OAuth access token on `{app_base_url}`).
 */
export function admitCaller(definition: EndpointDefinition): HttpMiddleware {
  return {
    before: (request) => {
      const { principal } = httpStateOf(request);
      if (!principal) throw new Error('Credentialed endpoint reached without an authorizer principal');
      const verdict = admission(definition, principal);
      if (!verdict.admit) throw new HttpError(verdict.status, { error: verdict.error });
    },
  };
}
