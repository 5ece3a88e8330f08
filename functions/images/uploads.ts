import { DomainError } from '../../platform/errors.ts';
import { logger } from '../../platform/logger.ts';
import { cleanImage, ImageRejectedError, imageFormats, MAX_IMAGE_BYTES, NOT_AN_IMAGE, sniffImageFormat, type CleanImage } from './processing.ts';
import { bucketImageStore, newImageKey, publicImageUrl, type ImageKind, type ImageStore } from './storage.ts';
import { releaseImageUpload, reserveImageUpload } from './upload-quota.ts';

/**
 * One image upload, whatever it is for: refused before it counts if it is too large or not an
 * image; counted against the rider's daily allowance (upload-quota.ts); cleaned (processing.ts);
 * stored under a fresh key; then attached to what it is for (a profile, later an event or a
 * route). Nothing is left half-done: if storing fails the slot is given back and nothing was
 * written; if attaching fails the stored object is removed too.
 */

/** Storing the image failed (logged where it happened); spec 4.6 answers it 500 'Upload failed'. */
export class ImageUploadFailedError extends DomainError {
  constructor(cause: unknown) {
    super('failed', 'Upload failed');
    this.cause = cause;
  }
}

export interface UploadedImage extends CleanImage {
  key: string;
  url: string;
  contentType: string;
}

export async function uploadImage<T>(
  input: { uploaderId: string; kind: ImageKind; bytes: Uint8Array },
  attach: (image: UploadedImage) => Promise<T>,
  store: ImageStore = bucketImageStore,
): Promise<T> {
  // Cheap refusals first, so they never take a slot.
  if (input.bytes.byteLength > MAX_IMAGE_BYTES) throw new ImageRejectedError('too-large', `file: must be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  if (!(await sniffImageFormat(input.bytes))) throw new ImageRejectedError('invalid', NOT_AN_IMAGE);
  const reservation = await reserveImageUpload(input.uploaderId);
  let image: UploadedImage;
  try {
    const clean = await cleanImage(input.bytes);
    const { mime, extension } = imageFormats[clean.format];
    const key = newImageKey(input.kind, input.uploaderId, extension);
    image = { ...clean, key, url: publicImageUrl(key), contentType: mime };
  } catch (error) {
    await releaseImageUpload(reservation);
    throw error;
  }
  try {
    await store.put(image.key, image.bytes, image.contentType);
  } catch (error) {
    await releaseImageUpload(reservation);
    logger.error('image upload: storing failed', { kind: input.kind, error: error as Error });
    throw new ImageUploadFailedError(error);
  }
  try {
    return await attach(image);
  } catch (error) {
    await store.remove(image.key).catch((cleanupError: unknown) =>
      logger.error('image upload: could not remove an unattached image', { key: image.key, error: cleanupError as Error }),
    );
    await releaseImageUpload(reservation);
    throw error;
  }
}
