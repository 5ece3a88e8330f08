/**
 * Static inputs in AWS: files of the shared data folder that jobs read (the DEM and borough
 * boundaries of the graph build, the cycle-parking sources), uploaded by the stack to the graphs
 * bucket under `inputs/<their path in the shared data folder>` (lib/static-inputs.ts).
 */
export const INPUTS_PREFIX = 'inputs/';

export const inputKey = (relativePath: string): string => `${INPUTS_PREFIX}${relativePath}`;

/** The error of a job whose configured input is not in the bucket: it fails rather than run without it. */
export const missingInputError = (relativePath: string): Error =>
  new Error(`input ${inputKey(relativePath)} is missing from the graphs bucket; the stack uploads it from the shared data folder (docs/operations.md, "Static inputs")`);
