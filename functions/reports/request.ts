import { z } from 'zod';
import { hasControlCharacters } from '../../core/control-characters.ts';
import { SOURCE_SLUG_PATTERN } from '../auth/api-keys.ts';
import { coordinate } from '../directions/request.ts';
import {
  characterCount,
  isRecognisedSubtype,
  ISSUE_TYPES,
  MAX_DESCRIPTION_CHARACTERS,
  MAX_ROAD_NAME_CHARACTERS,
  MAX_UNRECOGNISED_SUBTYPE_CHARACTERS,
} from './fields.ts';

/**
 * The body of POST /reports/ (spec 4.4), one rule per row of the spec's table. `source` depends on
 * who calls (required for partner keys, ignored for user sessions), so its rule is checked once
 * the caller is known (`sourceProblem`), still before any rate-limit token is spent.
 */

const required = (message: string) => (issue: { input: unknown }) => (issue.input === undefined ? 'required' : message);

/**
 * Optional text: absent, null and the empty string all mean "not given". Control characters are
 * refused (an operator reads reports in a terminal), except newline and tab where `allowLineBreaks`.
 */
function optionalText(maxCharacters: number, { allowLineBreaks = false } = {}) {
  return z
    .string({ error: 'must be a string' })
    .refine((text) => characterCount(text) <= maxCharacters, `must be at most ${maxCharacters.toLocaleString('en')} characters`)
    .refine(
      (text) => !hasControlCharacters(text, allowLineBreaks ? '\n\t' : ''),
      allowLineBreaks ? 'must not contain control characters other than newline and tab' : 'must not contain control characters',
    )
    .nullish()
    .transform((text) => (text ? text : null));
}

export const reportSubmission = z
  .object({
    issue_type: z.enum(ISSUE_TYPES, { error: required(`must be one of ${ISSUE_TYPES.join(', ')}`) }),
    location: z.unknown().refine((value) => value !== undefined, 'required').pipe(coordinate),
    description: optionalText(MAX_DESCRIPTION_CHARACTERS, { allowLineBreaks: true }),
    road_name: optionalText(MAX_ROAD_NAME_CHARACTERS),
    issue_subtype: z.string({ error: 'must be a string' }).nullish().transform((text) => (text ? text : null)),
    // Checked once the caller is known (sourceProblem); the documents show its rule.
    source: z.unknown().optional().meta({
      description: "Partner keys: required, the key's own source slug. Ignored for riders and apps.",
      override: { type: 'string', pattern: SOURCE_SLUG_PATTERN.source },
    }),
  })
  .superRefine((body, context) => {
    const subtype = body.issue_subtype;
    if (subtype === null || isRecognisedSubtype(body.issue_type, subtype)) return;
    if (characterCount(subtype) > MAX_UNRECOGNISED_SUBTYPE_CHARACTERS) {
      context.addIssue({
        code: 'custom',
        path: ['issue_subtype'],
        message: `is not a recognised subtype of ${body.issue_type} and is longer than ${MAX_UNRECOGNISED_SUBTYPE_CHARACTERS} characters`,
      });
    }
  });

export type ReportSubmission = z.output<typeof reportSubmission>;
