import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { DomainError } from '../../platform/errors.ts';

/**
 * What an uploaded image goes through before it is stored: its real type read from its bytes
 * (the name and type the client gave are ignored), then a re-encode by sharp that applies the
 * EXIF orientation to the pixels and writes no metadata at all, so EXIF (with GPS), XMP, IPTC,
 * comments and ICC profiles (colours converted to sRGB) never reach storage. Large images are
 * scaled down; the format stays the one uploaded.
 */

/** The largest upload accepted (spec 8 leaves it open). It fits API Gateway and Lambda's 6 MB request payload once base64-encoded. */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
/** Images are stored at most this many pixels wide and high. */
export const MAX_IMAGE_DIMENSION = 2048;
/** Decoding stops beyond this many pixels (a small file can claim a huge canvas). */
const MAX_INPUT_PIXELS = 50_000_000;

export const imageFormats = {
  jpeg: { mime: 'image/jpeg', extension: 'jpg' },
  png: { mime: 'image/png', extension: 'png' },
  gif: { mime: 'image/gif', extension: 'gif' },
  webp: { mime: 'image/webp', extension: 'webp' },
} as const;
export type ImageFormat = keyof typeof imageFormats;

const formatByMime = new Map<string, ImageFormat>(Object.entries(imageFormats).map(([format, { mime }]) => [mime, format as ImageFormat]));

/** An upload that is not an image of the four formats, does not decode, or is too large. */
export class ImageRejectedError extends DomainError {
  constructor(kind: 'invalid' | 'too-large', message: string) {
    super(kind, message);
  }
}

export const NOT_AN_IMAGE = 'file: must be a JPEG, PNG, GIF or WebP image';

/** The image format the bytes really are, or null for anything else (SVG, text, PDF, ...). */
export async function sniffImageFormat(bytes: Uint8Array): Promise<ImageFormat | null> {
  const detected = await fileTypeFromBuffer(bytes);
  return (detected && formatByMime.get(detected.mime)) ?? null;
}

export interface CleanImage {
  bytes: Uint8Array;
  format: ImageFormat;
  width: number;
  height: number;
}

/** Checks and re-encodes an upload; refuses what is not one of the four formats or does not decode. */
export async function cleanImage(bytes: Uint8Array): Promise<CleanImage> {
  if (bytes.byteLength === 0) throw new ImageRejectedError('invalid', 'file: is empty');
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new ImageRejectedError('too-large', `file: must be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  const format = await sniffImageFormat(bytes);
  if (!format) throw new ImageRejectedError('invalid', NOT_AN_IMAGE);
  const animated = format === 'gif' || format === 'webp';
  try {
    const input = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, animated });
    const metadata = await input.metadata();
    // The decoder must agree with the sniffer: a file cannot be one format to one and another to the other.
    if (metadata.format !== format) throw new ImageRejectedError('invalid', NOT_AN_IMAGE);
    const pipeline = input
      .autoOrient()
      .resize({ width: MAX_IMAGE_DIMENSION, height: MAX_IMAGE_DIMENSION, fit: 'inside', withoutEnlargement: true });
    const encoded =
      format === 'jpeg'
        ? pipeline.jpeg({ quality: 85, mozjpeg: true })
        : format === 'png'
          ? pipeline.png({ compressionLevel: 9 })
          : format === 'gif'
            ? pipeline.gif()
            : pipeline.webp({ quality: 85 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: new Uint8Array(data), format, width: info.width, height: info.pageHeight ?? info.height };
  } catch (error) {
    if (error instanceof ImageRejectedError) throw error;
    // A truncated or corrupt file, or one beyond the pixel limit.
    throw new ImageRejectedError('invalid', `file: is not a readable ${format.toUpperCase()} image`);
  }
}
