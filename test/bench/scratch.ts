import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Imported first by every benchmark entry point: the run makes its temporary folders (graph
 * builds of hundreds of megabytes, platforms' state, tiled extracts) in one scratch folder,
 * removed when the process exits. The processes a benchmark starts inherit TMPDIR. Folders a
 * benchmark is told to keep (`BENCH_METRO_DIR`, `--keep`, `--cpu-prof <dir>`) lie elsewhere.
 */
if (!process.env.SPOKE_BENCH_SCRATCH) {
  const scratch = mkdtempSync(join(tmpdir(), 'spoke-bench-'));
  process.env.SPOKE_BENCH_SCRATCH = scratch;
  process.env.TMPDIR = scratch;
  process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
}
