import { z } from 'zod';

/**
 * The rider profile answers of {app_base_url} (spec 2.1, 4.6) as zod schemas, for the OpenAPI
 * documents (functions/openapi/), the handlers' result types and the contract tests.
 */

const coords = z.string().nullable().meta({ description: '`longitude,latitude`.' });

export const publicProfile = z
  .object({
    idp_user_id: z.string().meta({ description: 'Identity-provider user id.' }),
    name: z.string(),
    image_url: z.string().nullable(),
    date_registered: z.string().meta({ description: 'ISO 8601.' }),
  })
  .meta({ id: 'PublicProfile', description: 'The public profile subset (spec 2.1): search results for regular riders, and the photo upload\'s answer.' });

export const riderProfile = publicProfile
  .extend({
    email: z.string(),
    home_address: z.string().nullable(),
    home_coords: coords,
    work_address: z.string().nullable(),
    work_coords: coords,
  })
  .meta({ id: 'Profile', description: 'The user profile (spec 2.1).' });

export const profileUpdated = z
  .object({ status: z.literal('success'), updated_fields: z.array(z.string()).meta({ description: 'The fields the update changed.' }) })
  .meta({ id: 'ProfileUpdated' });

export const riderSearchResponse = z
  .object({
    count: z.int().min(0),
    users: z.array(z.union([riderProfile, publicProfile])).meta({ description: 'At most 50, by name; full profiles for admins, the public subset for everyone else.' }),
  })
  .meta({ id: 'RiderSearchResponse' });
