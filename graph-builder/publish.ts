import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import type { CityId } from '../core/cities/index.ts';
import { s3 } from '../platform/aws.ts';
import { bucketReader } from '../platform/object-store.ts';
import { currentPointerKey, graphsPrefix, readGraphPointer, type CurrentGraphPointer } from '../core/graph/catalog.ts';

/** Publishing a built graph to the graphs bucket: the graph first, the pointer last. */

export function publishedPointer(bucket: string, city: CityId): Promise<CurrentGraphPointer | null> {
  return readGraphPointer(bucketReader(bucket), city);
}

/**
 * Uploads the graph, then moves the city's pointer to it: until the pointer moves, routers keep
 * the previous graph, so a failed upload never leaves them without one. A buffer, not a stream:
 * the SDK sends streams aws-chunked, which S3-compatible stores such as s3rver keep verbatim.
 */
export async function publishGraph(bucket: string, city: CityId, pointer: CurrentGraphPointer, graph: Uint8Array): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: bucket, Key: pointer.key, Body: graph, ContentType: 'application/octet-stream' }));
  await s3().send(
    new PutObjectCommand({ Bucket: bucket, Key: currentPointerKey(city), Body: JSON.stringify(pointer), ContentType: 'application/json' }),
  );
}

/**
 * Graph versions each city keeps in the graphs bucket: the newest published, which the pointer
 * names, and the two before it, so an operator can roll a bad graph back by pointing
 * `current.json` at one of them. Every changed build writes a new key, so without pruning each
 * city would keep one graph (~700 MB at real size) per changed night for ever: the bucket's
 * noncurrent-version rule only expires versions of keys that were overwritten or deleted.
 */
export const GRAPH_VERSIONS_KEPT = 3;

/** One graph file in the bucket and when it was published (S3's LastModified: when its upload completed). */
export interface PublishedGraphFile {
  readonly key: string;
  readonly publishedAt: Date;
}

/**
 * The graph files to delete: all but the `keep` most recently published, and never the one the
 * pointer names (an operator may have pointed it back at an older version). Ordered by publish
 * time, not by name: version names carry the time a build started, and of two concurrent builds
 * the one that started first may publish last. A build whose graph is uploaded but whose pointer
 * is not yet written has the newest file, so it is among the kept. Ties (S3 times are to the
 * second) fall back to the name, whose timestamp is the build's start.
 */
export function graphFilesToPrune(files: readonly PublishedGraphFile[], currentKey: string | null, keep: number = GRAPH_VERSIONS_KEPT): string[] {
  const newestFirst = [...files].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
  return newestFirst.slice(keep).map((file) => file.key).filter((key) => key !== currentKey);
}

/** Every graph file of the city in the bucket, with its publish time. */
export async function publishedGraphFiles(bucket: string, city: CityId): Promise<PublishedGraphFile[]> {
  const files: PublishedGraphFile[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: graphsPrefix(city), ContinuationToken: continuationToken }));
    for (const object of page.Contents ?? []) {
      if (object.Key && object.LastModified) files.push({ key: object.Key, publishedAt: object.LastModified });
    }
    continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (continuationToken);
  return files;
}

/**
 * Deletes the city's graph versions beyond the newest `keep`, after a publish: the pointer is
 * read again here, after it was written, so the version it names is never among the deleted.
 * In the versioned bucket a deletion leaves a noncurrent version, which the bucket's lifecycle
 * rule expires (lib/data-stores.ts). Returns the deleted keys.
 */
export async function pruneGraphVersions(bucket: string, city: CityId, keep: number = GRAPH_VERSIONS_KEPT): Promise<string[]> {
  const pointer = await publishedPointer(bucket, city);
  const doomed = graphFilesToPrune(await publishedGraphFiles(bucket, city), pointer?.key ?? null, keep);
  // DeleteObjects takes at most 1,000 keys a request.
  for (let start = 0; start < doomed.length; start += 1000) {
    const response = await s3().send(new DeleteObjectsCommand({
      Bucket: bucket,
      Delete: { Objects: doomed.slice(start, start + 1000).map((key) => ({ Key: key })), Quiet: true },
    }));
    const failed = response.Errors ?? [];
    if (failed.length > 0) throw new Error(`Could not delete ${failed.length} old graph versions of ${city}: ${failed[0]!.Key} ${failed[0]!.Code ?? ''}`);
  }
  return doomed;
}
