import { GetObjectCommand, NoSuchKey } from '@aws-sdk/client-s3';
import { s3 } from './aws.ts';

/** Reading objects from the platform's buckets, with "there is no such object" as a value, not an error. */

/**
 * The object's bytes. With the length known, the body is copied chunk by chunk into one buffer of
 * that size: collecting the chunks and then joining them would hold a graph of hundreds of MB
 * twice while it downloads.
 */
export async function readObjectBytes(bucket: string, key: string): Promise<Uint8Array> {
  const response = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if (!response.Body) throw new Error(`Empty object ${key}`);
  const length = response.ContentLength;
  const body = response.Body as unknown as Partial<AsyncIterable<Uint8Array>>;
  if (length === undefined || typeof body[Symbol.asyncIterator] !== 'function') return response.Body.transformToByteArray();
  const bytes = new Uint8Array(length);
  let received = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    if (received + chunk.length > length) throw new Error(`${key}: more than the ${length} bytes announced`);
    bytes.set(chunk, received);
    received += chunk.length;
  }
  if (received !== length) throw new Error(`${key}: ${received} of ${length} bytes arrived`);
  return bytes;
}

const isMissing = (error: unknown): boolean => error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey';

/** The object's text, or null when the key does not exist. */
export async function readObjectText(bucket: string, key: string): Promise<string | null> {
  try {
    return new TextDecoder().decode(await readObjectBytes(bucket, key));
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** A reader bound to one bucket, for code that takes any reader (core/graph/catalog.ts). */
export const bucketReader = (bucket: string) => (key: string): Promise<string | null> => readObjectText(bucket, key);
