import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { CityId } from '../core/cities/index.ts';
import { s3 } from '../functions/platform/aws.ts';
import { bucketReader } from '../functions/platform/object-store.ts';
import { currentPointerKey, readGraphPointer, type CurrentGraphPointer } from '../core/graph/catalog.ts';

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
