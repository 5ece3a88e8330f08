import { z } from 'zod';
import { MAX_QUERY_CHARACTERS, MIN_QUERY_CHARACTERS, normaliseName } from './name-search.ts';

/** The query of GET {app_base_url}/api/users/search/?q= (spec 4.6). */
export const riderSearchQuery = z.object({
  q: z
    .string({ error: 'required: the text to look for in riders\' names' })
    .refine((value) => Array.from(normaliseName(value)).length >= MIN_QUERY_CHARACTERS, `must be at least ${MIN_QUERY_CHARACTERS} characters`)
    .refine((value) => Array.from(value).length <= MAX_QUERY_CHARACTERS, `must be at most ${MAX_QUERY_CHARACTERS} characters`),
});
