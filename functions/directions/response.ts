import { BICYCLE_TYPES } from '../../core/routing/costing/bicycle-types.ts';
import { z } from 'zod';
import { NO_ROUTE_REASONS } from '../../core/routing/planning/leg.ts';
import { SAFETY_CLASSES, STOP_TYPES } from '../../core/graph/flags.ts';
import { PROFILES } from '../../core/graph/profiles.ts';
import { beyondTheSpec } from '../http/schema-meta.ts';

/**
 * The response of POST /directions/v2/ (spec 4.1) as zod schemas: the OpenAPI documents are
 * generated from them (functions/openapi/), the handler's result is typed by them (endpoint()'s
 * `response`), and the contract tests hold every answer to them. Routes, legs and steps are
 * shared with multi-modal options (spec 4.2: "same shape as directions steps").
 */

export const position = z
  .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)])
  .meta({ id: 'Position', description: '`[longitude, latitude]` (GeoJSON order), degrees.' });

export const lineString = z
  .object({ type: z.literal('LineString'), coordinates: z.array(position) })
  .meta({ id: 'LineString', description: 'A GeoJSON LineString.' });

export const safetyClass = z.enum(SAFETY_CLASSES).meta({
  id: 'SafetyClass',
  description: 'Spec 1.1: `quiet` quiet road; `cycleway` a quiet road on a signed cycle route; `moderate`; `busy`; `shared` a path shared with pedestrians.',
});

const metres = (description: string) => z.number().meta({ description: `${description} Metres.` });
const seconds = (description: string) => z.number().meta({ description: `${description} Seconds.` });

const segment = z
  .object({
    start_index: z.int().min(0).meta({ description: "Index of the segment's first position in the step's geometry." }),
    end_index: z.int().min(0),
    safety_classification: safetyClass.optional(),
    cycle_routes: z.array(z.string()).nullable(),
    lit: z.boolean().optional(),
  })
  .meta({ id: 'StepSegment', description: 'A stretch of the step: `geometry.coordinates.slice(start_index, end_index + 1)`, with one safety class, cycle routes and lighting.' });

const bannerText = z
  .object({
    text: z.string(),
    components: z.array(z.object({ text: z.string(), type: z.enum(['text', 'road-name']) })),
    type: z.string().meta({ description: 'The maneuver type it announces.' }),
    modifier: z.string().optional(),
  })
  .meta({ id: 'BannerText' });

export const step = z
  .object({
    distance: metres('Length of the step.'),
    duration: seconds('Time for the step (15 km/h cycling, 5 km/h walking).'),
    delta_elevation: metres('Height gained (positive) or lost along the step; 0 where no elevation model covers the city (Los Angeles).'),
    elevation_gain: z.number().meta({ description: 'Beyond the spec: climb along the step. Metres.', ...beyondTheSpec }),
    elevation_loss: z.number().meta({ description: 'Beyond the spec: descent along the step. Metres.', ...beyondTheSpec }),
    name: z.string().meta({ description: 'The way the step follows; empty when unnamed.' }),
    mode: z.enum(PROFILES).meta({ description: '`walking` also on a cycling route where the bike is pushed.' }),
    safety_code: z.number().meta({ description: 'Deprecated (spec 9.3): 0 and 1 quiet, 2 moderate, 3 busy.', deprecated: true }),
    safety_classification: safetyClass.optional().meta({ description: 'On every ridden cycling step.' }),
    maneuver: z.object({
      type: z.string().meta({ description: '`Start`, `Turn`, `Continue`, `roundabout`, `U-turn`, and `Arrive` on the last step; the same in every language.' }),
      modifier: z.string().optional().meta({ description: '`left`, `right`, `straight`, `slight left`, `sharp right`, `uturn`, ...; absent when no direction.' }),
      instruction: z.string().meta({ description: 'Display text in the requested language.' }),
      location: position,
      bearing_before: z.number(),
      bearing_after: z.number(),
    }),
    exits: z.string().meta({ description: 'Roundabout exit number, else empty.' }),
    geometry: lineString,
    cycle_routes: z.array(z.string()).nullable().meta({ description: 'Signed cycle routes the step follows.' }),
    lit: z.boolean().optional(),
    segments: z.array(segment),
    voice_instructions: z.array(z.object({ distance_along_geometry: z.number(), announcement: z.string(), ssml_announcement: z.string() })),
    banner_instructions: z.array(
      z.object({ distance_along_geometry: z.number(), primary: bannerText, secondary: bannerText.optional(), sub: bannerText.optional() }),
    ),
  })
  .meta({ id: 'Step' });

const routeStop = z
  .object({
    stop_type: z.enum(STOP_TYPES.filter((type) => type !== null) as [string, ...string[]]),
    location: position,
  })
  .meta({ id: 'TrafficControl', description: 'A junction control on the route, listed when approached from the direction it applies to.' });

export const route = z
  .object({
    distance: metres('Length.'),
    duration: seconds('Travel time (15 km/h cycling, 5 km/h walking).'),
    elevation_gain: metres('Climb, from the elevation models (docs/routing.md, "Hills"); 0 where none covers the city (Los Angeles).'),
    elevation_loss: metres('Descent, as elevation_gain.'),
    safety_code: z.number().meta({ description: 'Deprecated: the mean of the ridden steps\' safety_code.', deprecated: true }),
    geometry: lineString,
    steps: z.array(step),
    stops: z.array(routeStop),
  })
  .meta({ id: 'Route' });

export const leg = route.extend({ mode: z.enum(PROFILES) }).meta({ id: 'Leg', description: 'One leg per consecutive pair of coordinates; equal to the route of a two-coordinate request for that pair.' });

export const disruption = z
  .object({
    id: z.string(),
    type: z.enum(['closure', 'roadworks', 'one_way', 'turn_removed', 'hazard']),
    road_name: z.string().nullable(),
    location: position,
    active_at_departure: z.boolean(),
    starts_at: z.string().nullable().meta({ description: 'Local ISO 8601 time the closed period starts; null when not known.' }),
    ends_at: z.string().nullable(),
    source: z.enum(['openstreetmap', 'report']),
    detail: z.string().nullable().meta({ description: 'The rule as written at the source.' }),
  })
  .meta({ id: 'Disruption', description: 'A temporary road disruption near the route, active at departure or starting within 60 minutes.' });

export const safetyBreakdown = z
  .object({
    ...Object.fromEntries(SAFETY_CLASSES.map((name) => [name, z.number()])),
    pushed: z.number(),
  } as Record<(typeof SAFETY_CLASSES)[number] | 'pushed', z.ZodNumber>)
  .meta({
    id: 'SafetyBreakdown',
    description: 'Beyond the spec: metres of the route ridden per safety class, and `pushed` for the metres walked with the bike.',
    ...beyondTheSpec,
  });

export const elevationProfile = z
  .array(z.tuple([z.number().min(0), z.number().nullable()]))
  .meta({
    id: 'ElevationProfile',
    description:
      'Beyond the spec: the route\'s height at its start, at every junction it passes and at its end, as `[metres along the route, metres above sea level]`; ' +
      'the height is null where no elevation model covers that point. Absent when none covers any of the route.',
    ...beyondTheSpec,
  });

export const alternativeRoute = route
  .extend({
    cost_ratio: z.number().meta({ description: 'Its cost over the route\'s at the request\'s costing (supersafe or direct): at most 1.4.' }),
    shared_share: z.number().min(0).max(1).meta({ description: 'The most of its length it shares with `route` or an alternative listed before it: at most 0.7.' }),
    safety_breakdown: safetyBreakdown,
    elevation_profile: elevationProfile.optional(),
    disruptions: z.array(disruption).optional().meta({ description: 'Absent when none.' }),
  })
  .meta({
    id: 'AlternativeRoute',
    description:
      'Beyond the spec: a route the rider may choose instead of `route` (docs/routing.md, "Alternative routes"), shaped as `route` is, with what `metadata` and `disruptions` say of `route` said of it.',
    ...beyondTheSpec,
  });

export const waypoint = z.object({ name: z.string(), location: position }).meta({ id: 'Waypoint', description: 'Where a requested coordinate joined the network.' });

export const directionsResponse = z
  .object({
    route: route.nullable().meta({ description: 'Null when no route joins the waypoints (a 200 outcome, not an error).' }),
    legs: z.array(leg).optional().meta({ description: 'Only with more than two coordinates and a route.' }),
    waypoints: z.array(waypoint),
    search_id: z.uuid(),
    graph_version: z.string().nullable().meta({ description: 'The routing network version; null on walking.' }),
    sublabel: z.string().nullable().meta({ description: '`Prefers well-lit roads` on night routes, else null.' }),
    disruptions: z.array(disruption).optional().meta({ description: 'Absent when none; never on walking.' }),
    alternatives: z.array(alternativeRoute).optional().meta({
      description: 'Beyond the spec: with `alternatives` asked and a route found, the alternative routes, cheapest first; empty where none passes the tests. Absent otherwise.',
      ...beyondTheSpec,
    }),
    metadata: z.object({
      profile: z.enum(PROFILES),
      supersafe: z.boolean(),
      nighttime: z.boolean(),
      waypoint_count: z.int(),
      avoid_hills: z.boolean().meta({ description: 'Beyond the spec: whether the route was planned with the hill preference (`avoid_hills`, cycling only).', ...beyondTheSpec }),
      safety_breakdown: safetyBreakdown.optional(),
      elevation_profile: elevationProfile.optional(),
      safety: z.number().min(0).max(1).optional().meta({
        description: 'Beyond the spec: the graded safety the cycling route was planned at: the request\'s `safety` (a name as its number) read to the quarter at or below it. Absent when the request gave none.',
        ...beyondTheSpec,
      }),
      bicycle_type: z.enum(BICYCLE_TYPES).optional().meta({
        description: 'Beyond the spec: the bicycle type the cycling route was planned for (`bicycle_type`). Absent when the request gave none, or for walking.',
        ...beyondTheSpec,
      }),
      no_route_reason: z.enum(NO_ROUTE_REASONS).optional().meta({
        description:
          'Beyond the spec, with `route: null` only: why. `outside_coverage`: a coordinate is outside the area the city\'s map covers or more than 250 m from any way the profile may use; ' +
          '`not_connected`: two consecutive coordinates lie in networks no way joins at any hour; `closed_at_departure`: the networks join, but no way between them is open at the departure (closures, time rules, accepted reports); `impassable_for_bicycle_type`: every way between them has steps, a narrow barrier or a narrow passage the request\'s `bicycle_type` never takes (a cargo bike), where a hybrid would have a route.',
        ...beyondTheSpec,
      }),
      no_route_message: z.string().optional().meta({ description: 'Beyond the spec, with `no_route_reason`: the reason as one sentence in the request\'s language, naming the coordinates (counted from 1).', ...beyondTheSpec }),
    }),
  })
  .meta({ id: 'DirectionsResponse' });
