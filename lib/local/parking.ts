import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { CityId } from '../../core/cities/index.ts';
import { DataFolderError, sharedDataPath } from '../../core/paths.ts';
import { PARKING_FILES } from '../../functions/multimodal/parking/datasets.ts';
import { encodeDataset, spotDatasetKey } from '../../functions/multimodal/parking/spots.ts';
import { s3 } from '../../functions/platform/aws.ts';
import { bucketName } from '../../functions/platform/resources.ts';

/**
 * The local platform's parking datasets (functions/multimodal/parking/): compiled from the
 * shared data's cycle-parking files and published to the local graphs bucket, as
 * `npm run admin -- parking publish` publishes them for a deployment. A dataset is compiled
 * again only when its source file changed (its SHA-256 is kept in the object's metadata).
 */
export async function publishLocalParking(cities: readonly CityId[], log: (line: string) => void): Promise<void> {
  const bucket = bucketName('graphs');
  for (const entry of PARKING_FILES) {
    if (!cities.includes(entry.city)) continue;
    const path = join(sharedDataPath(), entry.file);
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new DataFolderError(`The data folder ${sharedDataPath()} lacks ${entry.city}'s cycle parking, ${path} (${error.code ?? error.message}).`);
    });
    const sha256 = createHash('sha256').update(text).digest('hex');
    const key = spotDatasetKey(entry.city, entry.kind);
    const published = await s3()
      .send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
      .then((head) => head.Metadata?.['source-sha256'])
      .catch(() => undefined);
    if (published === sha256) continue;
    const dataset = entry.read(text);
    await s3().send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: encodeDataset(dataset), ContentType: 'application/gzip', Metadata: { 'source-sha256': sha256 } }),
    );
    log(`${entry.city}: published ${dataset.spots.length} parking spots (${entry.kind}) to the local graphs bucket`);
  }
}
