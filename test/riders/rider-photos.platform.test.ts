import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { app, gif, jpegWithGps, png, signedInRider, uploadPhoto, webp } from './rider-support.ts';
import { later } from '../oauth/oauth-support.ts';

/**
 * POST {app_base_url}/user/upload-photo/ (spec 4.6): the type is read from the bytes, metadata is
 * stripped and the orientation applied, the key is unguessable, the old photo stays, and uploads
 * are limited to 100 per 24 hours.
 */

const stored = async (url: string) => {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return { bytes: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') };
};

describe('profile photo upload', () => {
  it('stores a JPEG without its EXIF (GPS, camera) and with its orientation applied', async () => {
    const rider = await signedInRider();
    const original = await jpegWithGps(64, 32);
    const sent = await sharp(original).metadata();
    expect(sent.orientation).toBe(6);
    expect(sent.exif!.includes(Buffer.from('SpokeTestCam'))).toBe(true);
    expect(sent.exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD pointer tag

    const response = await uploadPhoto(rider, original);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['date_registered', 'idp_user_id', 'image_url', 'name']);
    expect(response.body).toMatchObject({ idp_user_id: rider.sub, name: rider.name });
    expect(response.body.image_url).toMatch(/\/images\/profile\/[0-9a-f]{32}\/[0-9a-f]{32}\.jpg$/);

    const { bytes, contentType } = await stored(response.body.image_url);
    expect(contentType).toBe('image/jpeg');
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 32, height: 64 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(bytes.includes(Buffer.from('Exif'))).toBe(false);
    expect(bytes.includes(Buffer.from('SpokeTestCam'))).toBe(false);
    expect((await app('/user/', rider)).body.image_url).toBe(response.body.image_url);
  });

  it('keeps the format the bytes are, whatever the client calls them: a PNG labelled JPEG is stored as PNG', async () => {
    const rider = await signedInRider();
    const response = await uploadPhoto(rider, await png(), { filename: 'holiday.jpg', contentType: 'image/jpeg' });
    expect(response.status).toBe(200);
    expect(response.body.image_url).toMatch(/\.png$/);
    const { bytes, contentType } = await stored(response.body.image_url);
    expect(contentType).toBe('image/png');
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    for (const [make, extension] of [[gif, 'gif'], [webp, 'webp']] as const) {
      const other = await uploadPhoto(rider, await make(), { contentType: 'application/octet-stream', filename: 'x.bin' });
      expect(other.body.image_url, extension).toMatch(new RegExp(`\\.${extension}$`));
    }
  });

  it('refuses SVG, text and other files whatever their label, and keeps the old photo', async () => {
    const rider = await signedInRider();
    const first = await uploadPhoto(rider, await png());
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const refusals = [
      await uploadPhoto(rider, svg, { filename: 'a.svg', contentType: 'image/svg+xml' }),
      await uploadPhoto(rider, svg, { filename: 'a.png', contentType: 'image/png' }),
      await uploadPhoto(rider, Buffer.from('just some text, not an image'), { filename: 'a.jpg', contentType: 'image/jpeg' }),
      await uploadPhoto(rider, Buffer.from('%PDF-1.4\n%âãÏÓ\n'), { filename: 'a.jpg' }),
    ];
    for (const refused of refusals) expect(refused).toMatchObject({ status: 400, body: { error: 'file: must be a JPEG, PNG, GIF or WebP image' } });
    // A JPEG cut short: the right magic bytes, no image.
    const truncated = (await jpegWithGps()).subarray(0, 200);
    expect(await uploadPhoto(rider, truncated)).toMatchObject({ status: 400, body: { error: 'file: is not a readable JPEG image' } });
    expect((await app('/user/', rider)).body.image_url).toBe(first.body.image_url);
  });

  it('answers 400 without a file part or multipart body, and 413 over 4 MB', async () => {
    const rider = await signedInRider();
    expect(await uploadPhoto(rider, null)).toMatchObject({ status: 400, body: { error: 'file: required: send the file as a multipart/form-data part named file' } });
    expect(await uploadPhoto(rider, await png(), { field: 'photo' })).toMatchObject({ status: 400, body: { error: 'file: required: send the file as a multipart/form-data part named file' } });
    const json = await app('/user/upload-photo/', rider, { method: 'POST', body: { file: 'data:image/png;base64,AAAA' } });
    expect(json).toMatchObject({ status: 400, body: { error: 'Request body must be multipart/form-data with a file part named file' } });
    const big = Buffer.concat([await png(), Buffer.alloc(4 * 1024 * 1024)]);
    expect(await uploadPhoto(rider, big, { contentType: 'image/png' })).toMatchObject({ status: 413, body: { error: 'file: must be at most 4 MB' } });
  });

  it('replaces image_url and leaves the old object where it was', async () => {
    const rider = await signedInRider();
    const first = await uploadPhoto(rider, await png(10, 10));
    const second = await uploadPhoto(rider, await png(12, 12));
    expect(second.body.image_url).not.toBe(first.body.image_url);
    expect((await app('/user/', rider)).body.image_url).toBe(second.body.image_url);
    expect((await sharp((await stored(first.body.image_url)).bytes).metadata()).width).toBe(10);
    // PATCH may point back to a photo the platform stored, or clear it.
    expect((await app('/user/', rider, { method: 'PATCH', body: { image_url: first.body.image_url } })).status).toBe(200);
    expect((await app('/user/', rider, { method: 'PATCH', body: { image_url: null } })).status).toBe(200);
    expect((await app('/user/', rider)).body.image_url).toBeNull();
  });

  it("refuses as image_url another rider's photo, and a URL of the right shape that names no stored object", async () => {
    const [owner, other] = await Promise.all([signedInRider(), signedInRider()]);
    const uploaded: string = (await uploadPhoto(owner, await png())).body.image_url;
    const refusal = { status: 400, body: { image_url: ['Must be null or the URL of a photo uploaded with POST /user/upload-photo/.'] } };
    expect(await app('/user/', other, { method: 'PATCH', body: { image_url: uploaded } })).toMatchObject(refusal);
    const neverStored = uploaded.replace(/\/[0-9a-f]{32}\.png$/, `/${'0'.repeat(32)}.png`);
    expect(neverStored).not.toBe(uploaded);
    expect(await app('/user/', owner, { method: 'PATCH', body: { image_url: neverStored } })).toMatchObject(refusal);
    const underOtherKind = uploaded.replace('/images/profile/', '/images/event/');
    expect(await app('/user/', owner, { method: 'PATCH', body: { image_url: underOtherKind } })).toMatchObject(refusal);
    expect((await app('/user/', other)).body.image_url).toBeNull();
    // The owner may point back at it.
    expect((await app('/user/', owner, { method: 'PATCH', body: { image_url: null } })).status).toBe(200);
    expect((await app('/user/', owner, { method: 'PATCH', body: { image_url: uploaded } })).status).toBe(200);
    expect((await app('/user/', owner)).body.image_url).toBe(uploaded);
  });

  it('takes 100 uploads in 24 hours; the 101st answers 429 until the window closes', { timeout: 180_000 }, async () => {
    const rider = await signedInRider();
    const image = await png(4, 4);
    // Spread over virtual minutes, so the per-minute request limit is not what stops them.
    for (let upload = 0; upload < 100; upload++) {
      const answer = await uploadPhoto(rider, image, { headers: later(upload * 3) });
      expect(answer.status, `upload ${upload + 1}`).toBe(200);
    }
    const refused = await uploadPhoto(rider, image, { headers: later(301) });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('Rate limit exceeded: 100 images per 24 hours');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(refused.body.retry_after_seconds).toBe(retryAfter);
    expect(retryAfter).toBeGreaterThan(24 * 3600 - 400);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    // A refused file takes no slot, and the window closes a day after it opened.
    expect(await uploadPhoto(rider, Buffer.from('text'), { headers: later(302) })).toMatchObject({ status: 400 });
    expect((await uploadPhoto(rider, image, { headers: later(24 * 3600 + 1) })).status).toBe(200);
  });
});
