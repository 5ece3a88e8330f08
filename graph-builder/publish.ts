import { GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import type { CityId } from '../functions/cities/index.ts';
import { s3 } from '../functions/platform/aws.ts';
import { currentPointerKey, type CurrentGraphPointer } from '../functions/routing/graph-format.ts';

/** Publishing a built graph to the graphs bucket: the graph first, the pointer last. */

export async function publishedPointer(bucket: string, city: CityId): Promise<CurrentGraphPointer | null> {
  try {
    const object = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: currentPointerKey(city) }));
    return JSON.parse(await object.Body!.transformToString()) as CurrentGraphPointer;
  } catch (error) {
    if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
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
