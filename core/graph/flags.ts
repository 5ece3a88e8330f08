/**
 * The bits packed into the graph's flag arrays (nodeFlags, edgeFlags, restrictionFlags,
 * closureFlags) and the enumerations they encode. The builder sets them (graph-builder/), the
 * router reads them; docs/graph-format.md explains each.
 */

// ---- node flags (nodeFlags, u16) ----
export const NODE_TRAFFIC_SIGNALS = 1 << 0;
export const NODE_STOP = 1 << 1;
export const NODE_ALL_WAY_STOP = 1 << 2;
export const NODE_GIVE_WAY = 1 << 3;
/** A pedestrian crossing of a carriageway (any kind). */
export const NODE_CROSSING = 1 << 4;
/** A crossing with pedestrian signals. */
export const NODE_CROSSING_SIGNALS = 1 << 5;
/** A barrier cyclists cannot pass even pushing (stile, turnstile, bicycle=no). */
export const NODE_BARRIER_NO_CYCLING = 1 << 6;
/** A barrier pedestrians cannot pass. */
export const NODE_BARRIER_NO_WALKING = 1 << 7;
/** A barrier cyclists pass only pushing (kissing gate, cycle barrier, bicycle=dismount). */
export const NODE_BARRIER_DISMOUNT = 1 << 8;
/** Three or more distinct neighbours: a real junction (for guidance). */
export const NODE_JUNCTION = 1 << 9;
export const NODE_MINI_ROUNDABOUT = 1 << 10;
/**
 * A barrier too narrow for a cargo bike even pushed (kissing gate, cycle barrier, stile, turnstile,
 * or any barrier with a `maxwidth` under 1 m): the `cargo` bicycle type never passes it.
 */
export const NODE_BARRIER_NARROW = 1 << 11;
/** The node's height was measured (an elevation model, or OSM `ele`), not filled in from its neighbours'. */
export const NODE_ELEVATION_KNOWN = 1 << 15;

// ---- edge flags (edgeFlags, u32) ----
export const SAFETY_CLASSES = ['quiet', 'cycleway', 'moderate', 'busy', 'shared'] as const;
export type SafetyClass = (typeof SAFETY_CLASSES)[number];
export const SAFETY_QUIET = 0;
export const SAFETY_CYCLEWAY = 1;
export const SAFETY_MODERATE = 2;
export const SAFETY_BUSY = 3;
export const SAFETY_SHARED = 4;

export const EDGE_SAFETY_MASK = 0b111; // bits 0-2
export const EDGE_CYCLING = 1 << 3;
export const EDGE_WALKING = 1 << 4;
export const EDGE_LIT_SHIFT = 5; // bits 5-6: LIT_* (unknown, no, yes, assumed)
export const EDGE_SURFACE_SHIFT = 7; // bits 7-8: surface penalty 0 (smooth) .. 3 (very rough)
export const EDGE_ROADWORKS = 1 << 9;
/** Cycling is allowed only pushing the bike (walking pace). */
export const EDGE_DISMOUNT = 1 << 10;
export const EDGE_WALK_KIND_SHIFT = 11; // bits 11-12: WALK_*
export const EDGE_STEPS = 1 << 13;
/** The edge runs against its segment's geometry direction. */
export const EDGE_REVERSED = 1 << 14;
export const EDGE_ROUNDABOUT = 1 << 15;
export const EDGE_ROAD_CLASS_SHIFT = 16; // bits 16-19: ROAD_CLASSES index
/** Cycling against a one-way street where bicycles are exempt (contraflow). */
export const EDGE_CONTRAFLOW = 1 << 20;
/** At least one restriction sequence starts with this edge. */
export const EDGE_RESTRICTION_FROM = 1 << 21;
export const EDGE_ARRIVAL_CONTROL_SHIFT = 22; // bits 22-24: CONTROL_*
/** Signals or an all-way stop govern this approach to the junction at the edge's head. */
export const EDGE_JUNCTION_CONTROLLED = 1 << 25;
/** The segment is on a signed cycle route (route relation or lcn/rcn/ncn tag). */
export const EDGE_CYCLE_ROUTE = 1 << 26;
/** A `*_link` slip road. */
export const EDGE_LINK = 1 << 27;
/**
 * Bits 28-30: the Level of Traffic Stress of riding this direction, 1 (separated from traffic,
 * or traffic a child would ride in) to 4 (fast or wide roads, painted lanes included), as the
 * builder reads it from the way's tags (graph-builder/tag-rules/traffic-stress.ts `trafficStressRule`); 0 where
 * the graph does not say (a walking-only edge, or a graph built before the field existed).
 */
export const EDGE_STRESS_SHIFT = 28;

export const LIT_UNKNOWN = 0;
export const LIT_NO = 1;
export const LIT_YES = 2;
/**
 * No lit tag, but a public street in a city with street-lighting data (London, New York), where
 * such streets are lit as a rule. Treat as lit; kept apart from LIT_YES so costs can weigh it less.
 */
export const LIT_ASSUMED = 3;

/** How a walking edge relates to traffic. */
export const WALK_CARRIAGEWAY = 0; // walking in the road: no pavement mapped either way
export const WALK_PAVEMENT = 1; // a road whose pavement is tagged on it (sidewalk=*)
export const WALK_PATH = 2; // footway, path, pedestrian street, steps
export const WALK_CROSSING = 3; // footway=crossing

/** Control met on arriving at an edge's head node through this edge. */
export const CONTROL_NONE = 0;
export const CONTROL_TRAFFIC_SIGNALS = 1;
export const CONTROL_ALL_WAY_STOP = 2;
export const CONTROL_TWO_WAY_STOP = 3;
export const CONTROL_GIVE_WAY = 4;
export const STOP_TYPES = [null, 'traffic_signal', 'stop_sign', 'two_way_stop', 'give_way'] as const;

export const ROAD_CLASSES = [
  'other', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'living_street',
  'service', 'track', 'cycleway', 'path', 'footway', 'pedestrian', 'steps', 'bridleway',
] as const;
export type RoadClass = (typeof ROAD_CLASSES)[number];

export const safetyClassOf = (flags: number): number => flags & EDGE_SAFETY_MASK;
export const litOf = (flags: number): number => (flags >>> EDGE_LIT_SHIFT) & 0b11;
export const surfacePenaltyOf = (flags: number): number => (flags >>> EDGE_SURFACE_SHIFT) & 0b11;
export const walkKindOf = (flags: number): number => (flags >>> EDGE_WALK_KIND_SHIFT) & 0b11;
export const roadClassOf = (flags: number): number => (flags >>> EDGE_ROAD_CLASS_SHIFT) & 0b1111;
export const arrivalControlOf = (flags: number): number => (flags >>> EDGE_ARRIVAL_CONTROL_SHIFT) & 0b111;
/** Level of Traffic Stress 1-4, or STRESS_UNKNOWN (bits 28-30). */
export const trafficStressOf = (flags: number): number => (flags >>> EDGE_STRESS_SHIFT) & 0b111;
export const STRESS_UNKNOWN = 0;

// ---- segment ride flags (segmentRideFlags, u8): what the bicycle types ask of a way ----
/** Not sealed: gravel, compacted, dirt, grass and the like, and a track, path or bridleway without a `surface` tag. */
export const SEGMENT_UNPAVED = 1 << 0;
/** Cobbles: sett, cobblestone, unhewn cobblestone. */
export const SEGMENT_COBBLES = 1 << 1;
/** `smoothness` bad or worse, whatever the surface. */
export const SEGMENT_ROUGH = 1 << 2;
/** Narrower than a cargo bike: `maxwidth` or `maxwidth:physical` under 1 m. */
export const SEGMENT_NARROW = 1 << 3;

// ---- turn restrictions (restrictionFlags, u8) ----
/** Every stored restriction forbids its edge sequence; this bit says it was derived from an only_* relation. */
export const RESTRICTION_FROM_ONLY = 1 << 0;
/** From `restriction:bicycle=*` rather than the general `restriction=*`. */
export const RESTRICTION_BICYCLE_SPECIFIC = 1 << 1;
/** Spec 1.2.4: both approaches are on the same cycleway, so the router sets this no-turn aside. */
export const RESTRICTION_SAME_CYCLEWAY = 1 << 2;
/** The sequence has via edges (a via-way restriction) rather than a single via node. */
export const RESTRICTION_VIA_WAY = 1 << 3;

// ---- closures (closureFlags, u8) ----
export const CLOSURE_CYCLING = 1 << 0;
export const CLOSURE_WALKING = 1 << 1;
/** Closed while the window is NOT active (opening hours, `access=no` + `access:conditional=yes @ ...`). */
export const CLOSURE_OUTSIDE_WINDOW = 1 << 2;
/** The window has fixed dates (spec 1.2.6 date-range closure); otherwise a recurring schedule. */
export const CLOSURE_DATED = 1 << 3;
/** The next closure record applies to the same edges too (an edge's closures are consecutive). */
export const CLOSURE_CONTINUES = 1 << 4;

