import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../platform/aws.ts';
import { bucketName, buckets } from '../platform/resources.ts';

/**
 * Uploaded images in the photos bucket. Keys are unguessable (128 random bits): the bucket is
 * private, the CDN in front of it serves any key it is asked for, so a photo's URL is the only
 * way to it. Objects are never overwritten; a replaced photo stays where it was (spec 4.6).
 */

export const imageKinds = ['profile', 'event', 'destination', 'route'] as const;
export type ImageKind = (typeof imageKinds)[number];

export interface StoredImage {
  key: string;
  url: string;
}

/** Where stored images are written; a test can hand the upload a store that fails. */
export interface ImageStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  remove(key: string): Promise<void>;
}

export const bucketImageStore: ImageStore = {
  async put(key, bytes, contentType) {
    await s3().send(
      new PutObjectCommand({
        Bucket: bucketName('photos'),
        Key: key,
        Body: bytes,
        ContentType: contentType,
        // Keys never change content, so caches may keep them for a year.
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  },
  async remove(key) {
    await s3().send(new DeleteObjectCommand({ Bucket: bucketName('photos'), Key: key }));
  },
};

function publicBaseUrl(): string {
  const variable = buckets.photos.publicUrlEnvVar;
  const value = process.env[variable];
  if (!value) throw new Error(`Environment variable ${variable} is not set`);
  return value.replace(/\/+$/, '');
}

/** A fresh unguessable key: `images/<kind>/<32 hex characters>.<extension>`. */
export function newImageKey(kind: ImageKind, extension: string): string {
  return `images/${kind}/${randomBytes(16).toString('hex')}.${extension}`;
}

export const publicImageUrl = (key: string): string => `${publicBaseUrl()}/${key}`;

const KEY_PATTERN = /^images\/(profile|event|destination|route)\/[0-9a-f]{32}\.(jpg|png|gif|webp)$/;

/** Whether a URL is one this platform gave out for a stored image (and nothing else). */
export function isPlatformImageUrl(url: string): boolean {
  const base = `${publicBaseUrl()}/`;
  return url.startsWith(base) && KEY_PATTERN.test(url.slice(base.length));
}
