import type { CityId } from '../functions/cities/cities.ts';
import type { SpotCheck } from './statistics.ts';

/**
 * Streets and routes whose rating a local would know, checked in every build report so a rule
 * regression shows up as a visibly wrong line rather than a silent shift in totals.
 */
export const spotChecks: Readonly<Partial<Record<CityId, readonly SpotCheck[]>>> = {
  london: [
    { label: 'Euston Road (A501)', name: 'Euston Road', expect: 'busy; moderate where a bus lane runs' },
    { label: 'Tottenham Court Road', name: 'Tottenham Court Road', expect: 'busy or moderate (bus and cycle lanes)' },
    { label: 'North Circular Road (A406)', name: 'North Circular Road', expect: 'busy' },
    { label: 'Cycleway 6 (former CS6)', route: 'Cycleway 6', expect: 'cycleway (segregated track)' },
    { label: 'Cycleway 27', route: 'Cycleway 27', expect: 'mostly cycleway (signed quiet route)' },
    { label: 'Cycle Superhighway 7', route: 'Cycle Superhighway 7', expect: 'cycleway' },
  ],
  'new-york': [
    { label: 'Hudson River Greenway', name: 'Hudson River Greenway', expect: 'cycleway or shared' },
    { label: 'Brooklyn Bridge Bicycle Path', name: 'Brooklyn Bridge Bicycle Path', expect: 'cycleway' },
    { label: 'Manhattan Waterfront Greenway', route: 'Manhattan Waterfront Greenway', expect: 'cycleway or shared' },
    { label: 'West Street (NY 9A)', name: 'West Street', expect: 'busy' },
    { label: '1st Avenue', name: '1st Avenue', expect: 'cycleway (protected lane) with moderate/busy stretches' },
  ],
  'los-angeles': [
    { label: 'Sunset Boulevard', name: 'West Sunset Boulevard', expect: 'busy' },
    { label: 'Colorado Boulevard, Pasadena', name: 'Colorado Boulevard', expect: 'busy' },
    { label: 'Bruin Walk (UCLA)', name: 'Bruin Walk', expect: 'pedestrian: push only, so ~0 km ridden' },
  ],
  'sf-bay': [
    { label: 'Euclid Avenue, Berkeley', name: 'Euclid Avenue', expect: 'moderate (tertiary)' },
    { label: 'Campbell Street, West Oakland', name: 'Campbell Street', expect: 'quiet (residential)' },
  ],
};
