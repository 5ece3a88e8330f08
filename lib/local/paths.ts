import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { projectRoot } from '../project-root.ts';

/**
 * Filesystem locations of the local platform, the graph builder's command line and the tests.
 * Deployed Lambdas never read these: their data comes from DynamoDB and S3.
 */

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

/**
 * The data folder cannot be used: missing, not a folder, or unreadable. Its message says which
 * path was tried and where that path came from, for a person to act on; never a stack trace.
 */
export class DataFolderError extends Error {
  constructor(problem: string, source = dataPathSource()) {
    super(`${problem}\n${source}`);
    this.name = 'DataFolderError';
  }
}

/** Where the data folder's path came from, said for the person who can change it. */
function dataPathSource(): string {
  const setting = process.env.SPOKE_DATA_PATH;
  return setting === undefined
    ? 'SPOKE_DATA_PATH is not set, so the default ../shared/data beside the checkout was tried. Set SPOKE_DATA_PATH to the folder with the input data (OSM extracts, boundaries, bike-share feeds, cycle parking) and try again.'
    : `That is where SPOKE_DATA_PATH points ("${setting}"). Point SPOKE_DATA_PATH at the folder with the input data (OSM extracts, boundaries, bike-share feeds, cycle parking; by default ../shared/data beside the checkout) and try again.`;
}

/** Throws a `DataFolderError` unless `path` is a folder this process can read. */
export async function checkDataFolder(path: string = sharedDataPath(), source?: string): Promise<void> {
  let entry;
  try {
    entry = await stat(path);
    if (entry.isDirectory()) await access(path, constants.R_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be read (${code ?? (error as Error).message})`;
    throw new DataFolderError(`The data folder ${path} ${problem}.`, source);
  }
  if (!entry.isDirectory()) throw new DataFolderError(`The data folder ${path} is not a folder.`, source);
}

/** The local platform's log lines (JSON, one per line), in its state folder; `SPOKE_LOG_STDOUT=1` prints them instead. */
export const LOCAL_LOG_FILE = 'log.jsonl';

/** Where this process's log lines go locally: the state folder's log file, or null for stdout. */
export function localLogFile(stateDir: string): string | null {
  return process.env.SPOKE_LOG_STDOUT === '1' ? null : join(stateDir, LOCAL_LOG_FILE);
}
