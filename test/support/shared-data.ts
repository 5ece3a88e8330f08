import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { sharedDataPath } from '../../lib/local/paths.ts';

/**
 * Whether the shared data files a block of tests reads are all there (paths absolute or relative
 * to the data folder). On a developer's machine without them the block is skipped; under CI
 * (`CI` set, as `.ci/run` runs) missing data fails the test file instead, so a CI without the
 * data cannot pass by skipping what it could not check.
 */
export function sharedDataPresent(...paths: string[]): boolean {
  const missing = paths.map((path) => (isAbsolute(path) ? path : join(sharedDataPath(), path))).filter((path) => !existsSync(path));
  if (missing.length === 0) return true;
  if (process.env.CI) throw new Error(`Shared data missing under CI (set SPOKE_DATA_PATH to the data folder): ${missing.join(', ')}`);
  return false;
}
