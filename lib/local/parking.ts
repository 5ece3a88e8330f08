import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CityId } from '../../core/cities/index.ts';
import { DataFolderError, sharedDataPath } from './paths.ts';
import { PARKING_FILES } from '../../functions/multimodal/parking/datasets.ts';
import { publishParkingSource } from '../../functions/multimodal/parking/publish.ts';

/**
 * The local platform's parking datasets (functions/multimodal/parking/): compiled from the
 * shared data's cycle-parking files and published to the local graphs bucket, as the stack's
 * parking job publishes the uploaded ones in AWS (functions/multimodal/parking/publish.ts). A
 * dataset is compiled again only when its source file changed.
 */
export async function publishLocalParking(cities: readonly CityId[], log: (line: string) => void): Promise<void> {
  for (const entry of PARKING_FILES) {
    if (!cities.includes(entry.city)) continue;
    const path = join(sharedDataPath(), entry.file);
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new DataFolderError(`The data folder ${sharedDataPath()} lacks ${entry.city}'s cycle parking, ${path} (${error.code ?? error.message}).`);
    });
    const spots = await publishParkingSource(entry, text);
    if (spots !== null) log(`${entry.city}: published ${spots} parking spots (${entry.kind}) to the local graphs bucket`);
  }
}
