import { gunzipSync, gzipSync } from 'node:zlib';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../platform/aws.ts';
import { logger } from '../platform/logger.ts';
import { bucketName } from '../platform/resources.ts';
import { SNAPSHOT_FORMAT, type BikeShareSnapshot } from './model.ts';

/**
 * Snapshots live in S3, one gzipped JSON object per system (docs/bikeshare.md says why not
 * DynamoDB): readers fetch the whole system in one GET and re-check it with `If-None-Match`,
 * which costs a 304 when nothing changed; a write replaces the object whole, so no reader ever
 * sees half a snapshot.
 */

export const snapshotKey = (systemId: string): string => `snapshots/${systemId}.json.gz`;

export type StoredSnapshot = { snapshot: BikeShareSnapshot; etag: string };

const isStatus = (error: unknown, status: number): boolean => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === status;
const isMissing = (error: unknown): boolean => (error as { name?: string }).name === 'NoSuchKey' || isStatus(error, 404);

function decode(systemId: string, bytes: Uint8Array): BikeShareSnapshot | null {
  try {
    const snapshot = JSON.parse(gunzipSync(bytes).toString('utf8')) as BikeShareSnapshot;
    if (snapshot.format === SNAPSHOT_FORMAT && snapshot.system_id === systemId) return snapshot;
    logger.warn('bike-share snapshot of another format ignored', { systemId, format: snapshot.format });
  } catch (error) {
    logger.warn('bike-share snapshot unreadable', { systemId, error: error as Error });
  }
  return null;
}

/**
 * The stored snapshot, or `unchanged` when its ETag still equals `etag`, or null when there is
 * none (or it cannot be read: the next ingestion replaces it).
 */
export async function readSnapshot(systemId: string, etag?: string): Promise<StoredSnapshot | 'unchanged' | null> {
  try {
    const response = await s3().send(
      new GetObjectCommand({ Bucket: bucketName('bikeshare'), Key: snapshotKey(systemId), ...(etag ? { IfNoneMatch: etag } : {}) }),
    );
    const bytes = await response.Body!.transformToByteArray();
    const snapshot = decode(systemId, bytes);
    return snapshot ? { snapshot, etag: response.ETag ?? '' } : null;
  } catch (error) {
    if (isStatus(error, 304)) return 'unchanged';
    if (isMissing(error)) return null;
    throw error;
  }
}

export async function writeSnapshot(snapshot: BikeShareSnapshot): Promise<void> {
  await s3().send(
    new PutObjectCommand({
      Bucket: bucketName('bikeshare'),
      Key: snapshotKey(snapshot.system_id),
      Body: gzipSync(JSON.stringify(snapshot)),
      // Not `Content-Encoding: gzip`: no HTTP layer may unpack it behind the reader's back.
      ContentType: 'application/gzip',
    }),
  );
}
