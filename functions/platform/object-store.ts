import { GetObjectCommand, NoSuchKey } from '@aws-sdk/client-s3';
import { s3 } from './aws.ts';

/** Reading objects from the platform's buckets, with "there is no such object" as a value, not an error. */

export async function readObjectBytes(bucket: string, key: string): Promise<Uint8Array> {
  const response = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if (!response.Body) throw new Error(`Empty object ${key}`);
  return response.Body.transformToByteArray();
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
