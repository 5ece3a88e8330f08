import { join } from 'node:path';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { ensureGraphs } from '../../graph-builder/index.ts';

/**
 * Builds the city graphs once, before any project runs, into the folder `npm start` uses, and
 * points every platform the tests start at it: they then find the graphs up to date instead of
 * each building their own.
 */
export default async function setup(): Promise<void> {
  process.env.SPOKE_GRAPH_DIR ??= join(projectRoot, '.local-data', 'graphs');
  await ensureGraphs({ dataPath: sharedDataPath(), outDir: process.env.SPOKE_GRAPH_DIR, log: (line) => process.stdout.write(`[graphs] ${line}\n`) });
}
