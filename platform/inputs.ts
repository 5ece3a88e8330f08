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

/**
 * The shared data's cycle-parking sources (`other/`, see its SOURCES.md): the stack uploads them
 * (lib/static-inputs.ts), the parking job compiles each into the dataset multi-modal reads
 * (functions/multimodal/parking/datasets.ts says how each is read).
 */
export const PARKING_INPUT_FILES = {
  londonCycleStands: 'other/london/tfl_cid_cycle_parking.geojson',
  newYorkCityRacks: 'other/nyc/nyc_dot_bicycle_parking_20241213_subset.csv',
  sfBayCityRacks: 'other/sf-bay/sfmta_bicycle_parking_2021.csv',
} as const;

export type ParkingInput = keyof typeof PARKING_INPUT_FILES;
