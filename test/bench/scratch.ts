import { scratchFolder } from '../support/scratch.ts';

/**
 * Imported first by every benchmark entry point: the run's scratch folder (test/support/scratch.ts),
 * removed when the process exits. Folders a benchmark is told to keep (`BENCH_METRO_DIR`,
 * `--keep`, `--cpu-prof <dir>`) lie elsewhere.
 */
const remove = scratchFolder('SPOKE_BENCH_SCRATCH', 'spoke-bench-');
if (remove) process.once('exit', remove);
