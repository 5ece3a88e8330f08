import { createHash } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../../platform/aws.ts';
import { bucketName } from '../../../platform/resources.ts';
import type { PARKING_FILES } from './datasets.ts';
import { encodeDataset, spotDatasetKey } from './spots.ts';

/**
 * Publishing the cycle-parking datasets compiled from their source files (datasets.ts
 * PARKING_FILES). A dataset is compiled again only when its source changed: the source's SHA-256
 * is kept in the published object's metadata. The local platform reads the sources from the
 * shared data folder (lib/local/parking.ts); in AWS the stack uploads them to the graphs bucket
 * under `inputs/` and runs publish-handler.ts after each deployment that changes them.
 */

export type ParkingSourceEntry = (typeof PARKING_FILES)[number];

/** Publishes the dataset of one source file; its spot count, or null when the published one is from the same source. */
export async function publishParkingSource(entry: ParkingSourceEntry, text: string, bucket: string = bucketName('graphs')): Promise<number | null> {
  const sha256 = createHash('sha256').update(text).digest('hex');
  const key = spotDatasetKey(entry.city, entry.kind);
  const published = await s3()
    .send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
    .then((head) => head.Metadata?.['source-sha256'])
    .catch(() => undefined);
  if (published === sha256) return null;
  const dataset = entry.read(text);
  await s3().send(
    new PutObjectCommand({ Bucket: bucket, Key: key, Body: encodeDataset(dataset), ContentType: 'application/gzip', Metadata: { 'source-sha256': sha256 } }),
  );
  return dataset.spots.length;
}
