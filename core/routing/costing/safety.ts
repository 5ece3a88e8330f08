/**
 * The graded safety preference (`safety`, beyond the spec): how much a cycling route weighs the
 * supersafe metric against the direct one, from 0 (direct) to 1 (supersafe). Between the two the
 * costing is their convex combination (graded-costing.ts), so each grade's route is the exact
 * optimum of its own cost and the grades trace the trade-off between the two routes of the spec
 * (docs/routing.md, "Graded safety").
 */

/**
 * The named grades, as CycleStreets names its plans. `balanced` is chosen from the benchmark of
 * the grades on every city's seeded pairs (docs/benchmarks.md, "Graded safety"): of the grades
 * between, 0.25 keeps the most of supersafe's saving in busy and shared metres for the least of
 * its extra length (65 to 95% of the saving for 11 to 49% of the detour; 0.5 adds 3 to 15 points
 * of saving for another 17 to 30 of detour).
 */
export const SAFETY_GRADES = { fastest: 0, balanced: 0.25, quietest: 1 } as const;
export type SafetyGrade = keyof typeof SAFETY_GRADES;
export const SAFETY_GRADE_NAMES = Object.keys(SAFETY_GRADES) as SafetyGrade[];

/** The direct route's grade and the supersafe route's. */
export const DIRECT_SAFETY = SAFETY_GRADES.fastest;
export const SUPERSAFE_SAFETY = SAFETY_GRADES.quietest;

/** A grade given as a number or a name, as a number. */
export const safetyValueOf = (safety: number | SafetyGrade): number => (typeof safety === 'number' ? safety : SAFETY_GRADES[safety]);

/**
 * Routes are planned at grades a quarter apart (0, 0.25, 0.5, 0.75, 1), a number between being
 * read as the grade at or below it: each grade's route is chosen along the ladder of the grades
 * below it (core/routing/planning/leg.ts, `searchGradedLeg`), which makes the grades monotone in
 * busy + shared metres and in length and not only in the two metrics' costs.
 */
export const SAFETY_STEP = 0.25;

/** The grade routes are planned at for a requested safety: the ladder's grade at or below it. */
export const plannedSafety = (safety: number): number => Math.min(SUPERSAFE_SAFETY, Math.max(DIRECT_SAFETY, Math.floor(safety / SAFETY_STEP + 1e-9) * SAFETY_STEP));

/** The ladder's grades strictly between direct and supersafe, up to and including `safety`. */
export function gradesUpTo(safety: number): number[] {
  const grades: number[] = [];
  for (let step = 1; step * SAFETY_STEP <= safety + 1e-9 && step * SAFETY_STEP < SUPERSAFE_SAFETY; step++) grades.push(step * SAFETY_STEP);
  return grades;
}

/**
 * Two routes of near-equal cost can differ by a metre or so either way (where a way's two
 * directions or a junction's two sides are drawn apart): a change within this many metres of
 * length or of busy + shared metres is a tie between grades, not a step back.
 */
export const SAFETY_TIE_METRES = 1;

/** Strictly between direct and supersafe: the graded costing, not one of the two of the spec. */
export const isGradedSafety = (safety: number): boolean => safety > DIRECT_SAFETY && safety < SUPERSAFE_SAFETY;
