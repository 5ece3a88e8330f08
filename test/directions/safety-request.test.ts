import { describe, expect, it } from 'vitest';
import { explainRequest } from '../../functions/explain/request.ts';
import { directionsBody, directionsRequest, requestedSafety, SAFETY_CONFLICT } from '../../functions/directions/request.ts';
import { httpErrorOf } from '../../functions/http/errors.ts';
import { validationError } from '../../functions/http/validation.ts';
import { multiModalRequest } from '../../functions/multimodal/request.ts';

/**
 * The `safety` field (beyond the spec) as the three endpoints validate it: a number from 0 to 1 or
 * a grade's name, read as its number; with directions' `supersafe`, the two must agree, and the
 * 400 names its code. Without either, the spec's default (supersafe) stands.
 */

const coordinates = [[-74.0, 40.73], [-73.98, 40.76]];

describe('safety in a request', () => {
  it('reads the names as their numbers, and numbers from 0 to 1 as given', () => {
    const grades = [['fastest', 0], ['balanced', 0.25], ['quietest', 1], [0, 0], [0.3, 0.3], [1, 1]] as const;
    for (const [safety, value] of grades) {
      expect(directionsRequest.parse({ coordinates, safety }).safety).toBe(value);
      expect(explainRequest.parse({ coordinates, safety }).safety).toBe(value);
      expect(multiModalRequest.parse({ start: coordinates[0], end: coordinates[1], safety }).preferences.safety).toBe(value);
    }
  });

  it('refuses other names and numbers out of range, naming the rule', () => {
    for (const safety of ['medium', 'Balanced', 1.01, -0.5, '1', false]) {
      const result = directionsRequest.safeParse({ coordinates, safety });
      expect(result.success, JSON.stringify(safety)).toBe(false);
      expect(validationError(result.error!, 'body').message).toBe('safety: must be a number from 0 (direct) to 1 (supersafe), or one of fastest, balanced, quietest');
    }
  });

  it('takes supersafe as 1 (true, or absent) and 0 (false), and refuses the two disagreeing with a code', () => {
    expect(requestedSafety(directionsRequest.parse({ coordinates }))).toBe(1);
    expect(requestedSafety(directionsRequest.parse({ coordinates, supersafe: false }))).toBe(0);
    expect(requestedSafety(directionsRequest.parse({ coordinates, supersafe: true, safety: 'quietest' }))).toBe(1);
    expect(requestedSafety(directionsRequest.parse({ coordinates, supersafe: false, safety: 0 }))).toBe(0);
    expect(requestedSafety(directionsRequest.parse({ coordinates, safety: 0.5 }))).toBe(0.5);
    const result = directionsRequest.safeParse({ coordinates, supersafe: true, safety: 'balanced' });
    expect(result.success).toBe(false);
    const answer = httpErrorOf(validationError(result.error!, 'body'))!;
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: SAFETY_CONFLICT, error: 'safety: 0.25 disagrees with supersafe true, which means safety 1: send one of them' });
  });

  it('holds the endpoint body to the same rule, and plans alternatives at the two ends only', () => {
    expect(directionsBody.safeParse({ coordinates, supersafe: true, safety: 'balanced' }).success).toBe(false);
    expect(directionsBody.parse({ coordinates, safety: 'fastest', alternatives: true }).alternatives).toBe(true);
    expect(directionsBody.parse({ coordinates, safety: 1, alternatives: 2 }).alternatives).toBe(2);
    const graded = directionsBody.safeParse({ coordinates, safety: 'balanced', alternatives: true });
    expect(graded.success).toBe(false);
    expect(httpErrorOf(validationError(graded.error!, 'body'))!.body.error).toMatch(/^alternatives: are planned for the supersafe and the direct route only/);
  });
});
