import type { CityId } from '../core/cities/cities.ts';
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
    { label: 'Valencia Street, the Mission', name: 'Valencia Street', expect: 'moderate (painted lanes; only a track makes cycleway)' },
    { label: 'Polk Street', name: 'Polk Street', expect: 'cycleway or moderate (lanes on part of it)' },
    { label: 'Van Ness Avenue (US 101)', name: 'Van Ness Avenue', expect: 'busy' },
    { label: 'Euclid Avenue, Berkeley', name: 'Euclid Avenue', expect: 'moderate (tertiary)' },
    { label: 'Campbell Street, West Oakland', name: 'Campbell Street', expect: 'quiet (residential)' },
  ],
};

/** What the figures mean for each city, as someone who knows it reads them (shown in docs/graph-report.md). */
export const cityNotes: Readonly<Partial<Record<CityId, string>>> = {
  london:
    'Coverage is neighbourhood-scale: Bloomsbury/Fitzrovia, the City of London and Holborn (a network of its own: the extracts do not join it to Bloomsbury), outer North London (East Finchley to Bounds Green), St George\'s Circus and three junction-level extracts in Borough and Kennington, kept as separate networks because they do not touch. The lit share is high, as it should be: most Bloomsbury streets carry lit=yes and untagged public streets count as lit. Euston Road, Tottenham Court Road and the North Circular rate busy, moderate only where bus or cycle lanes run; the signed Cycleways (6, 27, CS7) rate mostly cycleway. Stop signs are nearly absent, as in the UK; give-ways are common. Heights come from the Copernicus GLO-90 surface model, smoothed into ground heights (every extract lies west of Greenwich, so the SRTM tiles behind it are not needed); outer North London has the climbs (Colney Hatch Lane up towards Muswell Hill).',
  'new-york':
    'Lower Manhattan, Downtown Brooklyn and Midtown, joined across the 14th Street gap by the small Valhalla extract; Jersey City ways in the Lower Manhattan extract are dropped by the city outline. The Hudson River Greenway rates cycleway or shared, the Brooklyn Bridge bicycle path cycleway, West Street busy, and 1st Avenue mostly cycleway (its protected lane). Most Manhattan pavements are drawn as their own ways, so about 190 km of carriageway leave the walking network and footways carry it. Hundreds of signalised approaches and few stop signs, as in Manhattan; the stop signs are in Brooklyn. Heights come from the SRTM tile N40W074 (voids, mostly in Midtown, filled from their neighbours; smoothed into ground heights), which ends at 74° W: the nodes west of that meridian (Battery Park City, Tribeca, the West Village, the Hudson waterfront) have no measured height, take their neighbours\' and climb nothing.',
  'los-angeles':
    'The UCLA campus with Westwood, and a stretch of Pasadena around Colorado Boulevard. The campus is mostly footways and steps (push-only or shared), Sunset and Colorado Boulevards rate busy. Los Angeles has no lighting data (spec 1.2.2), so lit is mostly unknown and night routing does not apply. No elevation model reaches Los Angeles either: every node is level, routes report no climb and the hill preference changes nothing.',
  'sf-bay':
    'San Francisco from two extracts five years apart: the north of the city from the Richmond to the Financial District (about 2019, car roads only, with their cycle-lane tags; no footways or paths) and the Mission, SoMa south, Potrero Hill and Bernal Heights (2014, every highway). Where they overlap, near Market Street and Duboce, ways are merged by OSM id and the newer version wins; even so the two stay separate networks (no way of the overlap joins them). Then the small West Oakland and Euclid Avenue (Berkeley) extracts. Valencia Street rates moderate (painted lanes on a tertiary road), Polk Street part cycleway, Van Ness Avenue busy. Heights come from the USGS 30 m bare-earth model of San Francisco, so this is the hilliest graph: Nob Hill, Russian Hill, Potrero Hill and Bernal Heights fill the steep bands. The model does not reach the East Bay extracts: their nodes have no measured height and climb nothing.',
};
