/**
 * What a road report is made of (spec 2.5, 4.4, 8): its categories, the subtypes recognised under
 * each, and the limits of the free-text fields. Every rule about a report's fields lives here.
 */

export const ISSUE_TYPES = ['road_closed', 'road_unsafe', 'bad_routing', 'unclear_instructions', 'unpleasant', 'other'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

/** `other` is recognised under every category (spec 4.4). */
export const OTHER_SUBTYPE = 'other';

/** The subtypes recognised under each category (spec 4.4), beside `other`. */
export const RECOGNISED_SUBTYPES: Readonly<Record<IssueType, readonly string[]>> = {
  road_closed: ['private_locked', 'barrier_gate', 'no_cycling_zone', 'temporary_closure', 'permanent_closure', 'one_way', 'road_missing'],
  road_unsafe: ['poor_bike_lane', 'too_many_peds', 'too_many_vehicles'],
  bad_routing: ['faster_route', 'quieter_route', 'fewer_turns'],
  unclear_instructions: ['wrong_direction', 'unclear_instruction', 'missing_instruction'],
  unpleasant: ['cobbles_rough', 'too_hilly', 'too_many_peds'],
  other: [],
};

/** Spec 8. Lengths count characters (Unicode code points), not UTF-16 units. */
export const MAX_DESCRIPTION_CHARACTERS = 2_000;
export const MAX_ROAD_NAME_CHARACTERS = 200;
export const MAX_UNRECOGNISED_SUBTYPE_CHARACTERS = 64;

export const characterCount = (text: string): number => [...text].length;

/** Whether `subtype` classifies a report of `issueType` without waiting for a human (spec 4.4). */
export function isRecognisedSubtype(issueType: IssueType, subtype: string): boolean {
  return subtype === OTHER_SUBTYPE || RECOGNISED_SUBTYPES[issueType].includes(subtype);
}

/** How each category and recognised subtype reads in a summary line. */
export const ISSUE_TYPE_LABELS: Readonly<Record<IssueType, string>> = {
  road_closed: 'Road closed',
  road_unsafe: 'Unsafe road',
  bad_routing: 'Bad routing',
  unclear_instructions: 'Unclear instructions',
  unpleasant: 'Unpleasant road',
  other: 'Other problem',
};

export const SUBTYPE_LABELS: Readonly<Record<string, string>> = {
  private_locked: 'private or locked',
  barrier_gate: 'barrier or gate',
  no_cycling_zone: 'no cycling zone',
  temporary_closure: 'temporary closure',
  permanent_closure: 'permanent closure',
  one_way: 'one way against the route',
  road_missing: 'the turn onto it is not allowed',
  poor_bike_lane: 'poor bike lane',
  too_many_peds: 'too many pedestrians',
  too_many_vehicles: 'too many vehicles',
  faster_route: 'a faster route exists',
  quieter_route: 'a quieter route exists',
  fewer_turns: 'a route with fewer turns exists',
  wrong_direction: 'wrong direction',
  unclear_instruction: 'unclear instruction',
  missing_instruction: 'missing instruction',
  cobbles_rough: 'cobbles or rough surface',
  too_hilly: 'too hilly',
  other: 'other',
};
