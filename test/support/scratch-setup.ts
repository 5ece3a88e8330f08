import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Gives the whole run one scratch folder and removes it when the run ends. Tests and what they
 * start (local platforms, chromium, every synthesized cloud assembly of about 80 MB) make their
 * temporary folders under `os.tmpdir()`, which reads TMPDIR; the workers and the processes they
 * start inherit it. Without this, a machine that runs the suite again and again fills its disk.
 *
 * Vitest runs the projects' global setups before the root's, so each project lists this first;
 * the first to run makes the folder and owns its removal.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.SPOKE_TEST_SCRATCH) return undefined;
  const scratch = await mkdtemp(join(tmpdir(), 'spoke-test-run-'));
  process.env.SPOKE_TEST_SCRATCH = scratch;
  process.env.TMPDIR = scratch;
  return async () => {
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  };
}
