import { gunzipSync, gzipSync } from 'node:zlib';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../platform/aws.ts';
import { logger } from '../../platform/logger.ts';
import { bucketName } from '../../platform/resources.ts';
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

/**
 * The snapshot's `written_at` in the object's metadata, so a write compares times with a HEAD
 * instead of downloading the stored snapshot. Objects written before it had none: they count as oldest.
 */
const WRITTEN_AT_METADATA = 'written-at';
/** Writes that lose the race to another run's write (S3's 412) look again this often. */
const WRITE_ATTEMPTS = 3;

/** The stored object's ETag and `written_at`, or null when there is none. */
async function storedVersion(systemId: string): Promise<{ etag: string; writtenAt: number } | null> {
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: bucketName('bikeshare'), Key: snapshotKey(systemId) }));
    return { etag: head.ETag ?? '', writtenAt: Number(head.Metadata?.[WRITTEN_AT_METADATA] ?? 0) || 0 };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * Stores the snapshot unless the stored one was made by a run that started later (`superseded`): runs of a
 * city's ingestion may overlap (lib/bike-share.ts reserves no concurrency by default), and the
 * older must never replace the newer. The times are compared just before the PUT; on S3 the PUT is
 * also conditional on the object compared (`If-Match` its ETag, `If-None-Match: *` when there was
 * none), so a write between the two fails with 412 and is looked at again. s3rver ignores those
 * conditions on PUT, so locally only the comparison holds.
 */
export async function writeSnapshot(snapshot: BikeShareSnapshot): Promise<'written' | 'superseded'> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const stored = await storedVersion(snapshot.system_id);
    if (stored && stored.writtenAt > snapshot.written_at) return 'superseded';
    try {
      await s3().send(
        new PutObjectCommand({
          Bucket: bucketName('bikeshare'),
          Key: snapshotKey(snapshot.system_id),
          Body: gzipSync(JSON.stringify(snapshot)),
          // Not `Content-Encoding: gzip`: no HTTP layer may unpack it behind the reader's back.
          ContentType: 'application/gzip',
          Metadata: { [WRITTEN_AT_METADATA]: String(snapshot.written_at) },
          ...(stored ? { IfMatch: stored.etag } : { IfNoneMatch: '*' }),
        }),
      );
      return 'written';
    } catch (error) {
      // 412: another write came between the HEAD and the PUT; 409: one is still in progress.
      if (!isStatus(error, 412) && !isStatus(error, 409)) throw error;
    }
  }
  return 'superseded';
}
