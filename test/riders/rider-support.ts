import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';
import { newRider, riderAccessToken, type TestRider } from '../oauth/oauth-support.ts';
import { call, platform, useLocalAws } from '../support/running-platform.ts';

/** Support for tests of the rider endpoints on {app_base_url}: signed-in riders, their calls, test images. */

export interface SignedInRider extends TestRider {
  token: string;
  headers: Record<string, string>;
}

/** A rider signed in to the platform's own app (their first sign-in created the account). */
export async function signedInRider(): Promise<SignedInRider> {
  const rider = await newRider({ profile: false });
  const token = await riderAccessToken(rider);
  return { ...rider, token, headers: { Authorization: `Bearer ${token}` } };
}

/** Removes a rider's profile, as if the account were gone while the token still lives. */
export async function deleteProfile(sub: string): Promise<void> {
  useLocalAws();
  await dynamo().send(new DeleteCommand({ TableName: tableName('riders'), Key: { idp_user_id: sub } }));
}

export const app = (path: string, rider: { headers: Record<string, string> }, options: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) =>
  call(path, { api: 'app', ...options, headers: { ...rider.headers, ...options.headers } });

/** POSTs a multipart upload with one part named `field` (default `file`). */
export async function uploadPhoto(
  rider: { headers: Record<string, string> },
  bytes: Uint8Array | null,
  options: { filename?: string; contentType?: string; field?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const form = new FormData();
  if (bytes) form.append(options.field ?? 'file', new Blob([bytes], { type: options.contentType ?? 'image/jpeg' }), options.filename ?? 'photo.jpg');
  else form.append('note', 'no file here');
  const response = await fetch(`${platform.app_base_url}/user/upload-photo/`, { method: 'POST', headers: { ...rider.headers, ...options.headers }, body: form });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const canvas = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 180, g: 60, b: 40 } } });

/** A JPEG that carries GPS coordinates, a camera make and orientation 6 (rotate 90°) in its EXIF. */
export async function jpegWithGps(width = 64, height = 32): Promise<Buffer> {
  return canvas(width, height)
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'SpokeTestCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 27/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 39/1' },
    })
    .toBuffer();
}

export const png = (width = 8, height = 8): Promise<Buffer> => canvas(width, height).png().toBuffer();
export const gif = (): Promise<Buffer> => canvas(6, 6).gif().toBuffer();
export const webp = (): Promise<Buffer> => canvas(6, 6).webp().toBuffer();
