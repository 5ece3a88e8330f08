import type { Profile } from '../../graph/profiles.ts';

/**
 * How fast each profile travels. Spec 8: walking 5 km/h, cycling 15 km/h, e-bike 22 km/h;
 * durations everywhere are derived from these, and costing starts from them.
 */

export const CYCLING_SPEED_MPS = 15 / 3.6;
export const WALKING_SPEED_MPS = 5 / 3.6;
export const EBIKE_SPEED_MPS = 22 / 3.6;

/** The speed a profile's durations assume (pushing a bike counts as walking). */
export const speedOf = (profile: Profile): number => (profile === 'cycling' ? CYCLING_SPEED_MPS : WALKING_SPEED_MPS);
