import { describe, expect, it } from 'vitest';
import { BICYCLE_TYPE_BYTES_PER_EDGE, DERIVED_BYTES_PER_EDGE, graphMemoryBudget, residentBytes, ResidentGraphs, RUNTIME_RESERVE_MB } from '../../functions/graphs/resident-graphs.ts';

const MB = 2 ** 20;

describe('resident graphs', () => {
  it('counts a graph as its file plus what the router derives per edge', () => {
    expect(residentBytes(670 * MB, 7_306_500)).toBe(670 * MB + 7_306_500 * (DERIVED_BYTES_PER_EDGE + BICYCLE_TYPE_BYTES_PER_EDGE));
  });

  it('takes the budget from GRAPH_MEMORY_BUDGET_MB, else the function memory less the reserve, else none', () => {
    expect(graphMemoryBudget({ GRAPH_MEMORY_BUDGET_MB: '900', AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3008' })).toBe(900 * MB);
    expect(graphMemoryBudget({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3008' })).toBe((3008 - RUNTIME_RESERVE_MB) * MB);
    expect(graphMemoryBudget({})).toBe(Infinity);
    expect(() => graphMemoryBudget({ GRAPH_MEMORY_BUDGET_MB: 'lots' })).toThrow(/positive/);
  });

  it('drops the least recently used cities, and only as many as the incoming graph needs', () => {
    const graphs = new ResidentGraphs(100);
    graphs.set('london', 40);
    graphs.set('new-york', 30);
    graphs.set('sf-bay', 20);
    graphs.touch('london');
    expect(graphs.cities()).toEqual(['new-york', 'sf-bay', 'london']);
    expect(graphs.makeRoom('los-angeles', 10)).toEqual([]);
    expect(graphs.makeRoom('los-angeles', 35)).toEqual(['new-york']);
    expect(graphs.makeRoom('los-angeles', 60)).toEqual(['new-york', 'sf-bay']);
  });

  it('counts the loaded version of a city during its swap, and refuses what cannot fit at all', () => {
    const graphs = new ResidentGraphs(100);
    graphs.set('london', 45);
    graphs.set('new-york', 30);
    // A new London version beside the old one: New York must go.
    expect(graphs.makeRoom('london', 45)).toEqual(['new-york']);
    // Two versions of 60 can never be held together; nor one of 120.
    graphs.set('london', 60);
    expect(graphs.makeRoom('london', 60)).toBeNull();
    expect(graphs.makeRoom('sf-bay', 120)).toBeNull();
    graphs.set('london', 50);
    expect(graphs.total).toBe(80);
    graphs.release('london');
    expect(graphs.cities()).toEqual(['new-york']);
  });
});
