/**
 * The instant tests and benchmarks pass where domain code asks for "now". Planning reads it only
 * to fill in a missing departure, and every caller passes one, so no answer depends on when or
 * where the suite runs: this fixed instant keeps it so if a departure is ever left out.
 */
export const FIXED_NOW = new Date('2026-06-15T16:00:00Z');
