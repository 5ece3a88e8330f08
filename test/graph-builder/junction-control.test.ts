import { beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_ALL_WAY_STOP, CONTROL_GIVE_WAY, CONTROL_NONE, CONTROL_TRAFFIC_SIGNALS, CONTROL_TWO_WAY_STOP, EDGE_JUNCTION_CONTROLLED, NODE_BARRIER_DISMOUNT, NODE_BARRIER_NARROW, NODE_BARRIER_NO_CYCLING, NODE_BARRIER_NO_WALKING, NODE_CROSSING, NODE_CROSSING_SIGNALS, NODE_JUNCTION, NODE_STOP, NODE_TRAFFIC_SIGNALS, arrivalControlOf } from '../../core/graph/flags.ts';
import { type Graph } from '../../core/graph/layout.ts';
import { nodeControlRule } from '../../graph-builder/stages/junction-control/controls.ts';
import { buildFixture, edgeFrom } from './helpers.ts';

// Node coordinates of test/fixtures/osm/junction-control.osm.
const at = {
  westEnd: [-0.103, 51.5], giveWay: [-0.101, 51.5], a: [-0.1, 51.5], stop: [-0.1, 51.49985], sideEnd: [-0.1, 51.498],
  bWestStop: [-0.0942, 51.5], bWest: [-0.095, 51.5], b: [-0.094, 51.5], bNorthStop: [-0.094, 51.50015], bNorth: [-0.094, 51.502],
  bEastStop: [-0.0938, 51.5], bEast: [-0.092, 51.5],
  c: [-0.094, 51.504], nearCrosswalk: [-0.094, 51.5041], cNorth: [-0.094, 51.506],
  midCrosswalk: [-0.0915, 51.504], cEastEnd: [-0.09, 51.504],
} as const;

let graph: Graph;
const edge = (way: number, from: readonly [number, number], to?: readonly [number, number]): number => edgeFrom(graph, way, from[0], from[1], to);
const control = (way: number, from: readonly [number, number], to?: readonly [number, number]): number => arrivalControlOf(graph.edgeFlags[edge(way, from, to)]!);

beforeAll(async () => {
  graph = (await buildFixture(['junction-control.osm'])).graph;
});

describe('junction control approach directions', () => {
  it('binds a stop sign without direction to traffic heading for the nearer junction', () => {
    expect(control(32, at.sideEnd)).toBe(CONTROL_TWO_WAY_STOP); // northbound, towards junction A
    expect(control(32, at.a)).toBe(CONTROL_NONE); // southbound, leaving A
  });

  it('applies a give-way tagged direction=backward only against the way direction', () => {
    expect(control(30, at.a)).toBe(CONTROL_GIVE_WAY); // way 30 runs west to east; backward is westbound
    expect(control(30, at.westEnd)).toBe(CONTROL_NONE);
  });

  it('makes stop signs on every approach an all-way stop that controls the junction', () => {
    expect(control(34, at.bWest)).toBe(CONTROL_ALL_WAY_STOP);
    expect(control(35, at.bNorth)).toBe(CONTROL_ALL_WAY_STOP);
    expect(control(36, at.bEast)).toBe(CONTROL_ALL_WAY_STOP);
    expect(graph.edgeFlags[edge(34, at.bWestStop, at.b)]! & EDGE_JUNCTION_CONTROLLED).toBeTruthy();
    expect(graph.edgeFlags[edge(32, at.stop, at.a)]! & EDGE_JUNCTION_CONTROLLED).toBeFalsy(); // a two-way stop does not
  });

  it('stops riders at junction signals once, not again at the crosswalks of the same junction', () => {
    expect(control(37, at.bNorth)).toBe(CONTROL_TRAFFIC_SIGNALS);
    expect(control(38, at.cNorth)).toBe(CONTROL_NONE); // arriving at the crosswalk next to C
    expect(control(38, at.nearCrosswalk, at.c)).toBe(CONTROL_TRAFFIC_SIGNALS); // arriving at C itself
    expect(graph.edgeFlags[edge(37, at.bNorth)]! & EDGE_JUNCTION_CONTROLLED).toBeTruthy();
  });

  it('stops riders both ways at a signalled mid-block crosswalk', () => {
    expect(control(39, at.c)).toBe(CONTROL_TRAFFIC_SIGNALS); // eastbound, arriving at the crosswalk
    expect(control(39, at.cEastEnd)).toBe(CONTROL_TRAFFIC_SIGNALS); // westbound
  });

  it('keeps node flags for guidance', () => {
    const nodeAt = (lon: number, lat: number): number => {
      for (let v = 0; v < graph.nodeCount; v++) {
        if (Math.abs(graph.nodeCoords[2 * v]! / 1e7 - lon) < 1e-7 && Math.abs(graph.nodeCoords[2 * v + 1]! / 1e7 - lat) < 1e-7) return v;
      }
      throw new Error('no node');
    };
    expect(graph.nodeFlags[nodeAt(...at.c)]! & (NODE_TRAFFIC_SIGNALS | NODE_JUNCTION)).toBe(NODE_TRAFFIC_SIGNALS | NODE_JUNCTION);
    expect(graph.nodeFlags[nodeAt(...at.stop)]! & NODE_STOP).toBeTruthy();
    expect(graph.nodeFlags[nodeAt(...at.midCrosswalk)]! & (NODE_CROSSING | NODE_CROSSING_SIGNALS)).toBe(NODE_CROSSING | NODE_CROSSING_SIGNALS);
  });
});

describe('nodeControlRule', () => {
  it('reads controls, directions and barriers from node tags', () => {
    expect(nodeControlRule({ highway: 'stop', stop: 'all' })).toMatchObject({ control: CONTROL_ALL_WAY_STOP, direction: 'both' });
    expect(nodeControlRule({ highway: 'traffic_signals', 'traffic_signals:direction': 'forward' })).toMatchObject({ control: CONTROL_TRAFFIC_SIGNALS, direction: 'forward' });
    expect(nodeControlRule({ barrier: 'bollard' })).toBeNull();
    expect(nodeControlRule({ barrier: 'stile' })?.flags).toBeTruthy();
    // Private, locked or no-access gates stop riders and walkers alike; a bicycle or foot tag can let one through.
    for (const tags of [{ barrier: 'gate', access: 'private' }, { barrier: 'gate', locked: 'yes' }, { barrier: 'gate', access: 'no' }] as Record<string, string>[]) {
      expect(nodeControlRule(tags)?.flags).toBe(NODE_BARRIER_NO_CYCLING | NODE_BARRIER_NO_WALKING);
    }
    expect(nodeControlRule({ barrier: 'gate', access: 'private', bicycle: 'yes', foot: 'yes' })).toBeNull();
    expect(nodeControlRule({ barrier: 'bollard', bicycle: 'no' })?.flags).toBe(NODE_BARRIER_NO_CYCLING);
    expect(nodeControlRule({ barrier: 'gate' })).toBeNull();
    expect(nodeControlRule({ highway: 'street_lamp' })).toBeNull();
    expect(nodeControlRule(null)).toBeNull();
  });

  it('marks the barriers a cargo bike does not fit through, whatever lets a bicycle pass them', () => {
    expect(nodeControlRule({ barrier: 'kissing_gate' })?.flags).toBe(NODE_BARRIER_DISMOUNT | NODE_BARRIER_NARROW);
    expect(nodeControlRule({ barrier: 'cycle_barrier', bicycle: 'yes' })?.flags).toBe(NODE_BARRIER_NARROW);
    expect(nodeControlRule({ barrier: 'stile' })?.flags).toBe(NODE_BARRIER_NO_CYCLING | NODE_BARRIER_NARROW);
    expect(nodeControlRule({ barrier: 'bollard', maxwidth: '0.9' })?.flags).toBe(NODE_BARRIER_NARROW);
    expect(nodeControlRule({ barrier: 'bollard', 'maxwidth:physical': '1.5' })).toBeNull();
    expect(nodeControlRule({ barrier: 'swing_gate' })?.flags).toBe(NODE_BARRIER_DISMOUNT);
  });
});
