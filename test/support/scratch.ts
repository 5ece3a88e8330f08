import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One scratch folder for a whole run (a test run, a benchmark): made under the system's temporary
 * directory, with TMPDIR pointed at it, so that every temporary folder the run makes with
 * `os.tmpdir()`, and those of the processes it starts, which inherit TMPDIR, lies inside it.
 * Answers the function that removes it, or null when `owner` (an environment variable naming the
 * folder) says an earlier call of the run made one already. Without it, a machine that runs the
 * suite and the benchmarks again and again fills its disk (every synthesized cloud assembly alone
 * is about 80 MB).
 */
export function scratchFolder(owner: string, prefix: string): (() => void) | null {
  if (process.env[owner]) return null;
  const folder = mkdtempSync(join(tmpdir(), prefix));
  process.env[owner] = folder;
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
}
