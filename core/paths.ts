import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Filesystem locations used by the local platform, the graph builder and the tests. Deployed
 * Lambdas never read these: their data comes from DynamoDB and S3.
 */

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Input data (OSM extracts, boundaries, GBFS snapshots, elevation). `SPOKE_DATA_PATH` overrides. */
export function sharedDataPath(): string {
  return resolve(process.env.SPOKE_DATA_PATH ?? resolve(projectRoot, '../shared/data'));
}

/** Where the local platform keeps its state (DynamoDB, S3 objects, built graphs, demo credentials). */
export function localStateDir(): string {
  return resolve(process.env.SPOKE_STATE_DIR ?? resolve(projectRoot, '.local-data'));
}

/** Compiled graphs written by the graph builder. `SPOKE_GRAPH_DIR` overrides. */
export function graphOutputDir(): string {
  return resolve(process.env.SPOKE_GRAPH_DIR ?? resolve(localStateDir(), 'graphs'));
}
