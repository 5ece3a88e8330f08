import { createHash, randomBytes } from 'node:crypto';
import { DeleteObjectCommand, HeadObjectCommand, NotFound, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../platform/aws.ts';
import { bucketName, buckets } from '../../platform/resources.ts';

/**
 * Uploaded images in the photos bucket. Keys are unguessable (128 random bits): the bucket is
 * private, the CDN in front of it serves any key it is asked for, so a photo's URL is the only
 * way to it. Objects are never overwritten; a replaced photo stays where it was (spec 4.6). Each
 * key starts with its uploader's prefix, so a URL says whose upload it is without a lookup.
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
  exists(key: string): Promise<boolean>;
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
  async exists(key) {
    try {
      await s3().send(new HeadObjectCommand({ Bucket: bucketName('photos'), Key: key }));
      return true;
    } catch (error) {
      if (error instanceof NotFound) return false;
      throw error;
    }
  },
};

function publicBaseUrl(): string {
  const variable = buckets.photos.publicUrlEnvVar;
  const value = process.env[variable];
  if (!value) throw new Error(`Environment variable ${variable} is not set`);
  return value.replace(/\/+$/, '');
}

/**
 * Whose uploads a key holds: 128 bits of a SHA-256 of the uploader's id, so the key names the
 * uploader without showing their id in a URL that may travel further than their profile.
 */
const uploaderPrefix = (uploaderId: string): string => createHash('sha256').update(uploaderId).digest('hex').slice(0, 32);

/** A fresh unguessable key under the uploader's prefix: `images/<kind>/<uploader>/<32 hex characters>.<extension>`. */
export function newImageKey(kind: ImageKind, uploaderId: string, extension: string): string {
  return `images/${kind}/${uploaderPrefix(uploaderId)}/${randomBytes(16).toString('hex')}.${extension}`;
}

export const publicImageUrl = (key: string): string => `${publicBaseUrl()}/${key}`;

const KEY_PATTERN = /^images\/(?:profile|event|destination|route)\/([0-9a-f]{32})\/[0-9a-f]{32}\.(?:jpg|png|gif|webp)$/;

/** The key of a URL this platform gives out for an image uploaded by `uploaderId`, or null for any other URL. */
export function imageKeyOf(url: string, uploaderId: string): string | null {
  const base = `${publicBaseUrl()}/`;
  if (!url.startsWith(base)) return null;
  const key = url.slice(base.length);
  return KEY_PATTERN.exec(key)?.[1] === uploaderPrefix(uploaderId) ? key : null;
}

/** Whether `url` names an image `uploaderId` uploaded that is still stored. */
export async function isStoredImageOf(url: string, uploaderId: string, store: ImageStore = bucketImageStore): Promise<boolean> {
  const key = imageKeyOf(url, uploaderId);
  return key !== null && (await store.exists(key));
}
