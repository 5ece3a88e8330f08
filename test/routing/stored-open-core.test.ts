import { describe, expect, it } from 'vitest';
import { openGraph } from '../../core/graph/layout.ts';
import { RoutingNetwork } from '../../core/routing/network/network.ts';
import { computeOpenCore, OPEN_CORE_CYCLING, OPEN_CORE_WALKING } from '../../core/routing/network/open-core.ts';
import { realGraphBytes } from './real-graphs.ts';

const bytesOf = (array: Uint8Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

describe('the open core stored in the graph', () => {
  it.each(['london', 'new-york'] as const)('is exactly what the router computes today, read in place (%s)', (city) => {
    const bytes = realGraphBytes(city);
    const graph = openGraph(bytes);
    const network = new RoutingNetwork(graph);
    expect(network.openCore.buffer).toBe(graph.nodeCoords.buffer);
    const computed = computeOpenCore(graph);
    expect(bytesOf(network.openCore).equals(bytesOf(computed))).toBe(true);
    // Both profiles have a core, and it is not every edge (closed or barred ways stay out).
    const count = (bit: number) => computed.reduce((total, bits) => total + (bits & bit ? 1 : 0), 0);
    for (const bit of [OPEN_CORE_CYCLING, OPEN_CORE_WALKING]) {
      expect(count(bit)).toBeGreaterThan(graph.edgeCount / 10);
      expect(count(bit)).toBeLessThan(graph.edgeCount);
    }
  });

  it('is computed anew when the graph was built under another definition', () => {
    const graph = openGraph(realGraphBytes('london'));
    const other = { ...graph, header: { ...graph.header, open_core: 'another-definition' } };
    const network = new RoutingNetwork(other);
    expect(network.openCore.buffer).not.toBe(graph.nodeCoords.buffer);
    expect(bytesOf(network.openCore).equals(bytesOf(graph.openCore))).toBe(true);
  });
});
