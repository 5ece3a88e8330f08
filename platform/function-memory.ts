/**
 * Memory of the functions that hold routing graphs, sized from the measured city-scale graph
 * (docs/benchmarks.md, "Router memory at city scale"). How a function spends it on graphs is
 * functions/graphs/resident-graphs.ts (a budget of the function's memory less RUNTIME_RESERVE_MB).
 */

/**
 * Memory of each city's routing function (functions/dispatch/: one per city behind directions,
 * multi-modal and explain-supersafe), the most a new AWS account allows a function (3,008 MB).
 * A function serves one city, so it holds that city and, during a version swap, its next graph:
 * two copies of the 694 MB city-scale graph peaked at 2,312 MB in a 3,008 MB cgroup, inside the
 * 2,408 MB budget this leaves. A city whose graph is resident at more than half the budget (about
 * 1,200 MB, a file of some 1,040 MB) fits alone but not with its swap; the deployment then sets
 * more memory (`-c routingMemoryMb=7168`, lib/endpoint-functions.ts) once the account allows it.
 * A cold function makes its graph routable in 24 to 160 ms once the bytes are in memory (measured
 * on that graph); the S3 download before that is most of a cold load at city scale, and is not
 * measured (docs/operations.md, "Routing memory").
 */
export const ROUTING_FUNCTION_MEMORY_MB = 3008;

/**
 * Memory of background functions that load one city's graph at a time (report analysis): one
 * city and its swap (measured peak 2,312 MB with two copies of the 694 MB graph).
 */
export const SINGLE_CITY_FUNCTION_MEMORY_MB = 3008;

/** The largest memory AWS gives a function once an account's quota is raised; 3,008 MB until then. */
export const MAX_FUNCTION_MEMORY_MB = 10_240;
