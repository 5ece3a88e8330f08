import { describe, expect, it } from 'vitest';
import { SEGMENT_COBBLES, SEGMENT_NARROW, SEGMENT_ROUGH, SEGMENT_UNPAVED, LIT_ASSUMED, LIT_NO, LIT_UNKNOWN, LIT_YES, ROAD_CLASSES, SAFETY_BUSY, SAFETY_CYCLEWAY, SAFETY_MODERATE, SAFETY_QUIET, SAFETY_SHARED, WALK_CARRIAGEWAY, WALK_CROSSING, WALK_PATH, WALK_PAVEMENT } from '../../core/graph/flags.ts';
import { routeMembershipRule } from '../../graph-builder/tag-rules/safety.ts';
import { lanesRule, maxspeedRule } from '../../graph-builder/tag-rules/traffic-stress.ts';
import { classifyWay } from '../../graph-builder/tag-rules/way.ts';
import { widthMetresRule } from '../../graph-builder/tag-rules/width.ts';
import { Warnings } from '../../graph-builder/warnings.ts';
import { fixtureWays, ruleFixture } from './helpers.ts';

const roadClass = (name: (typeof ROAD_CLASSES)[number]): number => ROAD_CLASSES.indexOf(name);

describe('highway rule (rules/highway.osm)', () => {
  it('keeps routable highways, skips non-routable ones silently and counts unknown values', async () => {
    const way = await ruleFixture('highway.osm');
    expect(way('residential').attributes?.roadClass).toBe(roadClass('residential'));
    expect(way('motorway').attributes).toBeNull();
    expect(way('motorway').warnings.entries()).toEqual([]);
    expect(way('proposed').attributes).toBeNull();
    expect(way('unknown-value').attributes).toBeNull();
    expect(way('unknown-value').warnings.get('ways with unknown highway value (skipped)')).toBe(1);
  });

  it('keeps highway=construction routable for cycling as its construction type, flagged as roadworks, and closed to walking', async () => {
    const way = await ruleFixture('highway.osm');
    expect(way('construction-of-cycleway').attributes).toMatchObject({ roadClass: roadClass('cycleway'), roadworks: true, walking: false });
    expect(way('construction-bare').attributes).toMatchObject({ roadClass: roadClass('unclassified'), roadworks: true, walking: false });
    expect(way('construction-bare').attributes!.forward.cycling).toBe(true);
    // A street with works on it stays a street for walkers; a site that foot=* keeps open, too.
    expect(way('construction-tag-on-road').attributes).toMatchObject({ roadClass: roadClass('primary'), roadworks: true, walking: true });
    expect(way('construction-open-to-foot').attributes).toMatchObject({ roadClass: roadClass('footway'), roadworks: true, walking: true });
  });
});

describe('cycling access rule (rules/cycling-access.osm)', () => {
  it('applies bicycle > vehicle > access > highway default', async () => {
    const way = await ruleFixture('cycling-access.osm');
    expect(way('bicycle-no').attributes).toMatchObject({ forward: { cycling: false }, backward: { cycling: false }, walking: true });
    expect(way('private').attributes).toBeNull();
    expect(way('private-bicycle-yes').attributes).toMatchObject({ forward: { cycling: true, dismount: false }, walking: false });
    expect(way('vehicle-no').attributes?.forward.cycling).toBe(false);
    expect(way('use-sidepath').attributes?.forward.cycling).toBe(false);
  });

  it('lets bicycles be pushed on footways and steps unless allowed to ride', async () => {
    const way = await ruleFixture('cycling-access.osm');
    expect(way('footway').attributes?.forward).toMatchObject({ cycling: true, dismount: true });
    expect(way('footway-bicycle-yes').attributes?.forward).toMatchObject({ cycling: true, dismount: false });
    expect(way('footway-access-yes').attributes?.forward.dismount).toBe(true);
    expect(way('dismount').attributes?.forward.dismount).toBe(true);
    expect(way('steps').attributes).toMatchObject({ steps: true, forward: { cycling: true, dismount: true } });
    expect(way('corridor').attributes).toMatchObject({ forward: { cycling: false }, walking: true });
  });

  it('keeps bicycles off pavements, crosswalks and traffic islands, where the road beside them is the way to ride', async () => {
    const way = await ruleFixture('cycling-access.osm');
    for (const fixture of ['sidewalk', 'crossing', 'traffic-island', 'sidewalk-access-yes']) {
      expect(way(fixture).attributes).toMatchObject({ forward: { cycling: false }, backward: { cycling: false }, walking: true });
    }
    // A bicycle tag decides: dismount pushes, yes rides; a cycle crossing is ridden.
    expect(way('crossing-bicycle-dismount').attributes?.forward).toMatchObject({ cycling: true, dismount: true });
    expect(way('sidewalk-bicycle-yes').attributes?.forward).toMatchObject({ cycling: true, dismount: false });
    expect(way('cycle-crossing').attributes?.forward).toMatchObject({ cycling: true, dismount: false });
  });

  it('ignores and counts unknown access values', async () => {
    const way = await ruleFixture('cycling-access.osm');
    const { attributes, warnings } = way('unknown-access');
    expect(attributes?.forward.cycling).toBe(true);
    expect(warnings.get('ways with unknown bicycle value (ignored)')).toBe(1);
  });
});

describe('one-way rule (rules/oneway.osm)', () => {
  it('follows oneway, -1 and roundabouts', async () => {
    const way = await ruleFixture('oneway.osm');
    expect(way('oneway-yes').attributes).toMatchObject({ forward: { cycling: true }, backward: { cycling: false }, walking: true });
    expect(way('oneway-reverse').attributes).toMatchObject({ forward: { cycling: false }, backward: { cycling: true } });
    expect(way('roundabout').attributes).toMatchObject({ roundabout: true, forward: { cycling: true }, backward: { cycling: false } });
  });

  it('lets bicycle-specific rules override the general one-way (spec 1.2.5)', async () => {
    const way = await ruleFixture('oneway.osm');
    for (const fixtureCase of ['oneway-bicycle-no', 'opposite-lane', 'side-contraflow', 'bicycle-backward-yes']) {
      expect(way(fixtureCase).attributes, fixtureCase).toMatchObject({ forward: { cycling: true, contraflow: false }, backward: { cycling: true, contraflow: true } });
    }
    expect(way('opposite-lane').attributes?.backward.infrastructure).toBe('lane');
    expect(way('side-contraflow').attributes?.backward.infrastructure).toBe('lane');
    expect(way('bicycle-only-oneway').attributes).toMatchObject({ forward: { cycling: true }, backward: { cycling: false } });
  });

  it('treats an unparseable oneway as two-way and counts it', async () => {
    const way = await ruleFixture('oneway.osm');
    expect(way('unparseable').attributes).toMatchObject({ forward: { cycling: true }, backward: { cycling: true } });
    expect(way('unparseable').warnings.get('ways with unparseable oneway (treated as two-way)')).toBe(1);
  });
});

describe('cycleway infrastructure rule (rules/cycleway-infrastructure.osm)', () => {
  it('assigns side lanes to directions by the driving side', async () => {
    const london = await ruleFixture('cycleway-infrastructure.osm', { drivingSide: 'left' });
    const newYork = await ruleFixture('cycleway-infrastructure.osm', { drivingSide: 'right' });
    expect(london('both-lane').attributes).toMatchObject({ forward: { infrastructure: 'lane' }, backward: { infrastructure: 'lane' } });
    expect(london('left-lane').attributes).toMatchObject({ forward: { infrastructure: 'lane' }, backward: { infrastructure: 'none' } });
    expect(newYork('left-lane').attributes).toMatchObject({ forward: { infrastructure: 'none' }, backward: { infrastructure: 'lane' } });
    expect(london('right-track').attributes).toMatchObject({ forward: { infrastructure: 'none' }, backward: { infrastructure: 'track', safety: SAFETY_CYCLEWAY } });
    expect(london('oneway-right-lane').attributes?.forward.infrastructure).toBe('lane');
  });

  it('counts a physically separated lane as a track and notes separate and shared-bus lanes', async () => {
    const way = await ruleFixture('cycleway-infrastructure.osm');
    expect(way('separated-lane').attributes?.forward).toMatchObject({ infrastructure: 'track', safety: SAFETY_CYCLEWAY });
    expect(way('busway').attributes?.forward).toMatchObject({ infrastructure: 'share_busway', safety: SAFETY_MODERATE });
    expect(way('separate').attributes?.forward).toMatchObject({ infrastructure: 'separate', safety: SAFETY_BUSY });
    expect(way('unknown').warnings.get('ways with unknown cycleway value (ignored)')).toBe(1);
  });
});

describe('road safety rule (rules/road-safety.osm)', () => {
  const cases: [string, number][] = [
    ['primary', SAFETY_BUSY],
    ['primary-lane', SAFETY_MODERATE],
    ['primary-track', SAFETY_CYCLEWAY],
    ['trunk-busway', SAFETY_MODERATE],
    ['secondary', SAFETY_MODERATE],
    ['secondary-4-lanes', SAFETY_BUSY],
    ['tertiary-40mph', SAFETY_BUSY],
    ['residential', SAFETY_QUIET],
    ['residential-3-lanes', SAFETY_MODERATE],
    ['residential-40mph', SAFETY_MODERATE],
    ['residential-sharrows', SAFETY_QUIET],
    ['cycle-street', SAFETY_CYCLEWAY],
    ['living-street', SAFETY_QUIET],
  ];
  it.each(cases)('%s is class %i in both directions', async (fixtureCase, safety) => {
    const way = await ruleFixture('road-safety.osm');
    expect(way(fixtureCase).attributes).toMatchObject({ forward: { safety }, backward: { safety } });
  });
});

describe('path safety rule (rules/path-safety.osm)', () => {
  const cases: [string, number][] = [
    ['cycleway', SAFETY_CYCLEWAY],
    ['cycleway-foot-designated', SAFETY_SHARED],
    ['cycleway-segregated', SAFETY_CYCLEWAY],
    ['path-bicycle-designated-foot-no', SAFETY_CYCLEWAY],
    ['path', SAFETY_SHARED],
    ['footway-bicycle-yes', SAFETY_SHARED],
    ['footway-segregated-designated', SAFETY_CYCLEWAY],
    ['pedestrian', SAFETY_SHARED],
  ];
  it.each(cases)('%s is class %i', async (fixtureCase, safety) => {
    const way = await ruleFixture('path-safety.osm');
    expect(way(fixtureCase).attributes?.forward.safety).toBe(safety);
  });
});

describe('route membership rule', () => {
  it('makes a quiet road on a signed cycle route `cycleway` and an unsegregated path on a walking route `shared`', () => {
    expect(routeMembershipRule(SAFETY_QUIET, 'road', true, false, false)).toBe(SAFETY_CYCLEWAY);
    expect(routeMembershipRule(SAFETY_MODERATE, 'road', true, false, false)).toBe(SAFETY_MODERATE);
    expect(routeMembershipRule(SAFETY_CYCLEWAY, 'path', false, true, false)).toBe(SAFETY_SHARED);
    expect(routeMembershipRule(SAFETY_CYCLEWAY, 'path', false, true, true)).toBe(SAFETY_CYCLEWAY);
  });

  it('keeps pedestrians apart from a cycleway tagged segregated=yes or foot=no, so a walking route along it leaves it `cycleway`', () => {
    const context = { drivingSide: 'right' as const, lightingData: false, warnings: new Warnings() };
    expect(classifyWay({ highway: 'cycleway', foot: 'no' }, context)?.pedestriansKeptApart).toBe(true);
    expect(classifyWay({ highway: 'cycleway', segregated: 'yes', foot: 'designated' }, context)?.pedestriansKeptApart).toBe(true);
    expect(classifyWay({ highway: 'cycleway', foot: 'yes', segregated: 'no' }, context)?.pedestriansKeptApart).toBe(false);
  });
});

describe('maxspeed and lanes rules (rules/maxspeed-lanes.osm)', () => {
  it('reads numbers, mph, named limits and zones, and counts what it cannot read', async () => {
    const ways = await fixtureWays('maxspeed-lanes.osm');
    const speed = (fixtureCase: string, warnings = new Warnings()): number | null => maxspeedRule(ways.get(fixtureCase)!, warnings);
    expect(speed('kmh')).toBe(50);
    expect(speed('mph')).toBeCloseTo(32.2, 1);
    expect(speed('named')).toBe(96);
    expect(speed('zone')).toBeCloseTo(32.2, 1);
    expect(speed('multiple')).toBe(50);
    const quiet = new Warnings();
    expect(speed('signals', quiet)).toBeNull();
    expect(quiet.entries()).toEqual([]);
    const warnings = new Warnings();
    expect(speed('bad', warnings)).toBeNull();
    expect(warnings.get('ways with unparseable maxspeed (ignored)')).toBe(1);
    expect(lanesRule(ways.get('lanes-multiple')!, warnings)).toBe(3);
    expect(lanesRule(ways.get('lanes-bad')!, warnings)).toBeNull();
    expect(warnings.get('ways with unparseable lanes (ignored)')).toBe(1);
  });
});

describe('lit rule (rules/lit.osm)', () => {
  it('reads lit values and lighting hours, and counts unknown values', async () => {
    const way = await ruleFixture('lit.osm');
    expect(way('yes').attributes?.lit).toBe(LIT_YES);
    expect(way('no').attributes?.lit).toBe(LIT_NO);
    expect(way('24-7').attributes?.lit).toBe(LIT_YES);
    expect(way('hours').attributes?.lit).toBe(LIT_YES);
    expect(way('odd').attributes?.lit).toBe(LIT_UNKNOWN);
    expect(way('odd').warnings.get('ways with unknown lit value (unknown)')).toBe(1);
  });

  it('assumes untagged public streets lit only in cities with lighting data', async () => {
    const lightingCity = await ruleFixture('lit.osm', { lightingData: true });
    const otherCity = await ruleFixture('lit.osm', { lightingData: false });
    expect(lightingCity('untagged-street').attributes?.lit).toBe(LIT_ASSUMED);
    expect(lightingCity('untagged-footway').attributes?.lit).toBe(LIT_UNKNOWN);
    expect(otherCity('untagged-street').attributes?.lit).toBe(LIT_UNKNOWN);
  });
});

describe('surface rule (rules/surface.osm)', () => {
  it('turns surface and smoothness into a penalty class, with documented defaults', async () => {
    const way = await ruleFixture('surface.osm');
    const penalty = (fixtureCase: string): number | undefined => way(fixtureCase).attributes?.surfacePenalty;
    expect([penalty('asphalt'), penalty('sett'), penalty('gravel'), penalty('mud')]).toEqual([0, 1, 2, 3]);
    expect(penalty('smoothness-bad')).toBe(2);
    expect(penalty('track-untagged')).toBe(1);
    expect(penalty('unknown')).toBe(0);
    expect(way('unknown').warnings.get('ways with unknown surface (treated as smooth)')).toBe(1);
    // Rough surfaces never change the safety class (spec 1.2.7).
    expect(way('mud').attributes?.forward.safety).toBe(SAFETY_QUIET);
  });

  it('tells unpaved from cobbled, rough and narrow, which one penalty class cannot (the bicycle types)', async () => {
    const way = await ruleFixture('surface.osm');
    const ride = (fixtureCase: string): number | undefined => way(fixtureCase).attributes?.rideFlags;
    // Compacted and sett share penalty 1; only the first is unpaved.
    expect(way('compacted').attributes?.surfacePenalty).toBe(way('sett').attributes?.surfacePenalty);
    expect([ride('compacted'), ride('sett'), ride('cobblestone')]).toEqual([SEGMENT_UNPAVED, SEGMENT_COBBLES, SEGMENT_COBBLES]);
    expect([ride('asphalt'), ride('gravel'), ride('mud')]).toEqual([0, SEGMENT_UNPAVED, SEGMENT_UNPAVED]);
    expect(ride('smoothness-bad')).toBe(SEGMENT_ROUGH);
    // Untagged tracks and paths are taken as unsealed; a path with a surface is what it says.
    expect([ride('track-untagged'), ride('path-asphalt')]).toEqual([SEGMENT_UNPAVED, 0]);
    expect(ride('unknown')).toBe(0);
    expect([ride('narrow'), ride('narrow-imperial'), ride('wide')]).toEqual([SEGMENT_NARROW, SEGMENT_NARROW, 0]);
  });

  it('reads widths in metres, centimetres, feet and inches', () => {
    expect([widthMetresRule('0.8'), widthMetresRule('0,9 m'), widthMetresRule('80 cm'), widthMetresRule('3 ft')]).toEqual([0.8, 0.9, 0.8, 3 * 0.3048]);
    expect(widthMetresRule('2\'6"')).toBeCloseTo(0.762, 3);
    expect([widthMetresRule('default'), widthMetresRule(undefined), widthMetresRule('')]).toEqual([null, null, null]);
  });
});

describe('walking rule (rules/walking.osm)', () => {
  it('walks paths, crossings, steps and pedestrian streets', async () => {
    const way = await ruleFixture('walking.osm');
    expect(way('footway').attributes).toMatchObject({ walking: true, walkKind: WALK_PATH });
    expect(way('crossing').attributes).toMatchObject({ walking: true, walkKind: WALK_CROSSING });
    expect(way('steps').attributes).toMatchObject({ walking: true, steps: true });
    expect(way('pedestrian').attributes).toMatchObject({ walking: true, walkKind: WALK_PATH });
  });

  it('uses the carriageway only where no separate pavement is mapped', async () => {
    const way = await ruleFixture('walking.osm');
    expect(way('road-with-sidewalk').attributes).toMatchObject({ walking: true, walkKind: WALK_PAVEMENT });
    expect(way('road-plain').attributes).toMatchObject({ walking: true, walkKind: WALK_CARRIAGEWAY });
    expect(way('road-sidewalk-separate').attributes?.walking).toBe(false);
    expect(way('road-sidewalk-sides').attributes?.walking).toBe(false);
    expect(way('road-foot-use-sidepath').attributes?.walking).toBe(false);
    expect(way('trunk-foot-no').attributes?.walking).toBe(false);
  });

  it('keeps walkers off cycleways unless foot is allowed, and ignores one-way', async () => {
    const way = await ruleFixture('walking.osm');
    expect(way('cycleway').attributes?.walking).toBe(false);
    expect(way('cycleway-foot-yes').attributes?.walking).toBe(true);
    expect(way('oneway-road').attributes).toMatchObject({ walking: true, backward: { cycling: false } });
  });
});

describe('name and route tag rule (rules/names-routes.osm)', () => {
  it('reads name, ref and lcn/ncn route tags', async () => {
    const way = await ruleFixture('names-routes.osm');
    expect(way('named').attributes).toMatchObject({ name: 'Euston Road', ref: 'A501', signedRoute: false });
    expect(way('lcn').attributes).toMatchObject({ signedRoute: true, routeNames: [] });
    expect(way('ncn-ref').attributes).toMatchObject({ signedRoute: true, routeNames: ['NCN 4'] });
    expect(way('lcn-proposed').attributes?.signedRoute).toBe(false);
  });
});

describe('time rules (rules/time-rules.osm)', () => {
  it('turns conditional access into closures for the modes it names', async () => {
    const way = await ruleFixture('time-rules.osm');
    expect(way('dated-closure').attributes?.timeRules).toEqual([
      { cycling: true, walking: true, condition: '2026 Dec 01-2027 Jan 31', outsideWindow: false, grantsAccess: false, source: 'access:conditional=no @ (2026 Dec 01-2027 Jan 31)' },
    ]);
    expect(way('weekly-bicycle').attributes?.timeRules).toMatchObject([{ cycling: true, walking: false, condition: 'Su 08:00-18:00', outsideWindow: false }]);
    expect(way('motor-only').attributes?.timeRules).toEqual([]);
  });

  it('opens a closed way only inside a `yes @` window, pushing on a footway', async () => {
    const way = await ruleFixture('time-rules.osm');
    const { attributes } = way('opens-in-window');
    expect(attributes).toMatchObject({ walking: true, forward: { cycling: true, dismount: true } });
    expect(attributes?.timeRules).toMatchObject([{ cycling: true, walking: true, condition: 'Mo-Fr 07:00-19:00', outsideWindow: true, grantsAccess: true }]);
  });

  it('closes a way outside its opening hours and keeps non-time conditions for the compiler to reject', async () => {
    const way = await ruleFixture('time-rules.osm');
    expect(way('opening-hours').attributes?.timeRules).toMatchObject([{ condition: 'Mo-Su 07:30-dusk', outsideWindow: true, grantsAccess: false }]);
    expect(way('non-time-condition').attributes?.timeRules).toMatchObject([{ condition: 'wet' }]);
  });
});

describe('Level of Traffic Stress rule (rules/traffic-stress.osm)', () => {
  // [case, forward LTS, backward LTS]: London drives on the left, so a left-hand lane serves forward.
  const cases: [string, number, number][] = [
    ['residential', 2, 2],
    ['residential-20mph', 2, 2],
    ['living-street', 1, 1],
    ['service', 2, 2],
    ['tertiary-20mph', 2, 2],
    ['tertiary-zone20', 2, 2],
    ['tertiary-30mph', 3, 3],
    ['tertiary', 3, 3],
    ['primary-20mph', 3, 3],
    ['primary', 4, 4],
    ['secondary-4-lanes-25mph', 3, 3],
    ['secondary-4-lanes-30mph', 4, 4],
    ['residential-lane-20mph', 1, 1],
    ['tertiary-lane-20mph', 2, 2],
    ['tertiary-lane-30mph', 2, 2],
    ['tertiary-lane-30mph-parking', 3, 3],
    ['tertiary-lane-30mph-parking-new-scheme', 3, 3],
    ['secondary-lane-50', 3, 3],
    ['primary-lane', 4, 4],
    ['primary-lane-45mph', 4, 4],
    ['primary-lane-6-lanes', 3, 3],
    ['primary-track', 1, 1],
    ['primary-separated-lane', 1, 1],
    ['cycle-street', 2, 2],
    ['bus-gate', 1, 1],
    ['left-lane-only', 2, 3],
    ['lanes-per-direction', 3, 2],
    ['cycleway', 1, 1],
    ['footway', 1, 1],
    ['cycle-crossing', 2, 2],
  ];
  it.each(cases)('%s is LTS %i forward and %i backward', async (fixtureCase, forward, backward) => {
    const way = await ruleFixture('traffic-stress.osm');
    expect(way(fixtureCase).attributes).toMatchObject({ forward: { stress: forward }, backward: { stress: backward } });
  });

  it('rates every lane of a one-way road as beside the rider', async () => {
    const way = await ruleFixture('traffic-stress.osm');
    expect(way('oneway-3-lanes-25mph').attributes?.forward).toMatchObject({ cycling: true, stress: 4 });
  });

  it('keeps a painted lane from calming a road tagged 65 km/h or more (LTS 4 either way), and calms one tagged slower', async () => {
    const way = await ruleFixture('traffic-stress.osm');
    expect(way('primary-lane-45mph').attributes?.forward.safety).toBe(SAFETY_BUSY);
    expect(way('primary-lane-6-lanes').attributes?.forward.safety).toBe(SAFETY_MODERATE);
    // Untagged: the class follows the tags there are (a lane calms a primary road), whatever LTS assumes of the limit.
    expect(way('primary-lane').attributes?.forward.safety).toBe(SAFETY_MODERATE);
  });
});
