import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';
import { FieldValidationError } from '../../platform/errors.ts';
import { riderOf } from './principal.ts';
import { checkProfileUpdate } from './profile-update.ts';
import { getRider, profileView, RiderNotFoundError, updateRider } from './profiles.ts';
import { profileUpdated, riderProfile } from './response.ts';

/** The body as parsed (a JSON object, json-body.ts), every name kept: profile-update.ts names each field it refuses. */
const updateBody = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value));

/**
 * GET {app_base_url}/user/: the signed-in rider's own profile (spec 4.6).
 * PATCH {app_base_url}/user/: a partial update, only the fields sent (profile-update.ts has the rules).
 * A rider without a profile is a `RiderNotFoundError` (404), from here or from `updateRider`.
 */
export const handler = endpoint(
  { id: 'user-profile', body: updateBody.optional(), response: z.union([riderProfile, profileUpdated]) },
  async ({ principal, body }) => {
    const rider = riderOf(principal);
    // GET carries no body (endpoint() parses none); PATCH always has one.
    if (body === undefined) {
      const profile = await getRider(rider.sub);
      if (!profile) throw new RiderNotFoundError();
      return { body: profileView(profile) };
    }
    const parsed = await checkProfileUpdate(rider.sub, body);
    if (!parsed.ok) throw new FieldValidationError(parsed.messages);
    await updateRider(rider.sub, parsed.changes);
    return { body: { status: 'success' as const, updated_fields: parsed.fields } };
  },
);
