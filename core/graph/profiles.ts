/**
 * The ways of travelling that a graph's networks are built for: every edge says whether cycling
 * (EDGE_CYCLING) and walking (EDGE_WALKING) may use it, and closures and the open core are kept per
 * profile. A fact of the graph, so the graph format names it without depending on the costing.
 */

export const PROFILES = ['cycling', 'walking'] as const;
export type Profile = (typeof PROFILES)[number];
