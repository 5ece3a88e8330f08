/**
 * Memory of the functions that hold routing graphs, sized from the measured city-scale graph
 * (docs/benchmarks.md, "Router memory at city scale"). How a function spends it on graphs is
 * functions/routing/resident-graphs.ts (a budget of the function's memory less RUNTIME_RESERVE_MB).
 */

/**
 * Memory of the functions that route (directions, multi-modal, explain-supersafe), from the
 * measured city-scale graph (docs/benchmarks.md, "Router memory at city scale"): a city of a
 * 250 MB extract holds about 1,172 MB, so the four cities (4,688 MB) and the swap of one of them
 * (1,172 MB more) fit in the budget this leaves (7,168 - 600 = 6,568 MB); five copies of the graph
 * peaked at 5,641 MB in a 7,168 MB cgroup. A container that held fewer cities would reload graphs
 * (5 to 30 s each) whenever its requests moved between cities.
 * Smaller graphs lower this; the budget follows the memory by itself.
 */
export const ROUTING_FUNCTION_MEMORY_MB = 7168;

/**
 * Memory of background functions that load one city's graph at a time (report analysis): one
 * city and its swap (measured peak 2,881 MB with two copies of the 670 MB graph).
 */
export const SINGLE_CITY_FUNCTION_MEMORY_MB = 3008;
