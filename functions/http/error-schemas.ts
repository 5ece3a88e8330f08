import { z } from 'zod';
import type { OAuthErrorCode } from '../../platform/oauth-errors.ts';

/**
 * The error bodies of errors.ts as zod schemas, for the OpenAPI documents (functions/openapi/)
 * and the contract tests that hold every answer to them: the spec's `{error, code?, details?}`
 * (spec 7) with the routing and rate-limit extras, the per-field map of a refused profile update,
 * and RFC 6749's body on the token and revocation endpoints.
 */

export const errorBody = z
  .object({
    error: z.string().meta({ description: 'What went wrong, for the developer; a field problem names the field, e.g. `coordinates[0][0]: longitude must be between -180 and 180`.' }),
    code: z.string().optional().meta({ description: 'A stable code where the spec names one (`CROSS_CITY_ROUTE`, `ROUTING_UNAVAILABLE`) or the platform adds one (`ROUTE_BUDGET_EXCEEDED`, `SAFETY_CONFLICTS_WITH_SUPERSAFE`).' }),
    details: z.string().optional().meta({ description: 'Every problem when a request breaks several rules, or more about the one named in `error`.' }),
    search_id: z.uuid().optional().meta({ description: 'Routing errors: the id of the request, as a 200 would have carried it.' }),
    retry_after_seconds: z.int().min(0).optional().meta({ description: 'Rate limits: seconds until the request can succeed (also `Retry-After`).' }),
  })
  .meta({ id: 'Error', description: 'The error body of every JSON endpoint (spec 7).' });

/** Spec 7: "Validation errors on profile update are an object mapping field name to an array of messages", plus `error`. */
export const fieldErrorsBody = z
  .object({ error: z.string().meta({ description: 'Every problem in one sentence, for clients that read only `error`.' }) })
  .catchall(z.array(z.string()))
  .meta({
    id: 'FieldErrors',
    description: 'A refused profile update: each field that broke a rule maps to its messages; `error` sums them up.',
    examples: [{ error: 'home_coords: must be longitude,latitude', home_coords: ['must be longitude,latitude'] }],
  });

/** Every code `OAuthError` can carry (the record makes the compiler list them all). */
const oauthErrorCodes = Object.keys({
  invalid_request: true,
  invalid_client: true,
  invalid_grant: true,
  unauthorized_client: true,
  unsupported_grant_type: true,
  invalid_scope: true,
  unsupported_token_type: true,
} satisfies Record<OAuthErrorCode, true>) as [OAuthErrorCode, ...OAuthErrorCode[]];

export const oauthErrorBody = z
  .object({
    error: z.enum(oauthErrorCodes).meta({ description: 'The RFC 6749 (5.2) or RFC 7009 (2.2.1) error code.' }),
    error_description: z.string().meta({ description: "What went wrong, for the app's developer." }),
  })
  .meta({ id: 'OAuthError', description: 'RFC 6749 section 5.2 error response.' });
