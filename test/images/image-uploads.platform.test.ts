import { randomUUID } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { riderPrincipal, toAuthorizerContext } from '../../functions/auth/principal.ts';
import { ImageUploadFailedError, uploadImage } from '../../functions/images/uploads.ts';
import type { ImageStore } from '../../functions/images/storage.ts';
import {
  IMAGE_UPLOADS_PER_WINDOW,
  ImageUploadLimitError,
  imageUploadsInWindow,
  releaseImageUpload,
  reserveImageUpload,
} from '../../functions/images/upload-quota.ts';
import { s3 } from '../../platform/aws.ts';
import { withClockOffset } from '../../platform/clock.ts';
import { bucketName } from '../../platform/resources.ts';
import { createRider, getRider } from '../../functions/riders/profiles.ts';
import { png } from '../riders/rider-support.ts';
import { useLocalAws } from '../support/running-platform.ts';

/**
 * The image-upload domain against the platform's DynamoDB and S3: the shared daily counter under
 * concurrency, and uploads that fail half-way leaving nothing behind.
 */

const newUploader = () => `uploader-${randomUUID()}`;

async function objectsUnder(prefix: string): Promise<string[]> {
  const listed = await s3().send(new ListObjectsV2Command({ Bucket: bucketName('photos'), Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key!);
}

describe('the image upload counter', () => {
  it('lets exactly 100 of 130 concurrent uploads through, from one rider, and counts each rider apart', async () => {
    useLocalAws();
    const rider = newUploader();
    const outcomes = await Promise.allSettled(Array.from({ length: 130 }, () => reserveImageUpload(rider)));
    const granted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(granted).toHaveLength(IMAGE_UPLOADS_PER_WINDOW);
    for (const outcome of refused) expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ImageUploadLimitError);
    expect(new Set(granted.map((outcome) => (outcome as PromiseFulfilledResult<{ remaining: number }>).value.remaining)).size).toBe(100);
    expect(await imageUploadsInWindow(rider)).toBe(100);
    // Another rider is not affected.
    expect((await reserveImageUpload(newUploader())).remaining).toBe(99);
  });

  it('gives a released slot back in the same window only, and opens a new window after 24 hours', async () => {
    useLocalAws();
    const rider = newUploader();
    const first = await reserveImageUpload(rider);
    for (let index = 1; index < 100; index++) await reserveImageUpload(rider);
    await expect(reserveImageUpload(rider)).rejects.toBeInstanceOf(ImageUploadLimitError);
    await releaseImageUpload(first);
    expect(await imageUploadsInWindow(rider)).toBe(99);
    const last = await reserveImageUpload(rider);
    expect(last.remaining).toBe(0);
    const nextDay = await withClockOffset(24 * 3600 * 1000, () => reserveImageUpload(rider));
    expect(nextDay.remaining).toBe(99);
    // A slot of the closed window given back does not count against the new one.
    await withClockOffset(24 * 3600 * 1000, () => releaseImageUpload(last));
    expect(await withClockOffset(24 * 3600 * 1000, () => imageUploadsInWindow(rider))).toBe(1);
  });
});

describe('an upload that fails half-way', () => {
  it('when storage fails: no object, the slot given back, the profile unchanged', async () => {
    useLocalAws();
    const rider = newUploader();
    const failing: ImageStore = {
      put: async () => {
        throw new Error('S3 is down');
      },
      remove: async () => undefined,
      exists: async () => false,
    };
    const attached: string[] = [];
    await expect(uploadImage({ uploaderId: rider, kind: 'profile', bytes: await png() }, async (image) => attached.push(image.key), failing)).rejects.toBeInstanceOf(
      ImageUploadFailedError,
    );
    expect(attached).toEqual([]);
    expect(await imageUploadsInWindow(rider)).toBe(0);
  });

  it('when attaching fails after storing: the stored object is removed and the slot given back', async () => {
    useLocalAws();
    const rider = newUploader();
    let storedKey = '';
    const failure = new Error('profile write failed');
    await expect(
      uploadImage({ uploaderId: rider, kind: 'profile', bytes: await png() }, async (image) => {
        storedKey = image.key;
        expect(await objectsUnder(image.key)).toEqual([image.key]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(storedKey).toMatch(/^images\/profile\/[0-9a-f]{32}\/[0-9a-f]{32}\.png$/);
    expect(await objectsUnder(storedKey)).toEqual([]);
    expect(await imageUploadsInWindow(rider)).toBe(0);
  });

  it("answers 500 'Upload failed' through the endpoint when the bucket cannot be written, and changes nothing", async () => {
    useLocalAws();
    const sub = `rider-${randomUUID()}`;
    await createRider({ idpUserId: sub, email: `${sub}@riders.test`, name: 'Failing Upload' });
    const { handler } = await import('../../functions/riders/photo-handler.ts');
    const boundary = 'spoke-test-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      await png(),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const event = {
      httpMethod: 'POST',
      path: '/user/upload-photo/',
      resource: '/user/upload-photo',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: body.toString('base64'),
      isBase64Encoded: true,
      queryStringParameters: null,
      pathParameters: null,
      requestContext: { requestId: randomUUID(), authorizer: toAuthorizerContext(riderPrincipal(sub)) },
    } as unknown as APIGatewayProxyEvent;
    const bucket = process.env.BUCKET_PHOTOS;
    process.env.BUCKET_PHOTOS = `missing-${randomUUID()}`;
    let response;
    try {
      response = await handler(event, { awsRequestId: randomUUID() } as Context);
    } finally {
      process.env.BUCKET_PHOTOS = bucket;
    }
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ error: 'Upload failed' });
    expect((await getRider(sub))!.image_url).toBeNull();
    expect(await imageUploadsInWindow(sub)).toBe(0);
    // The same request with the bucket in place goes through.
    const stored = await handler({ ...event, requestContext: { ...event.requestContext, requestId: randomUUID() } }, { awsRequestId: randomUUID() } as Context);
    expect(stored.statusCode).toBe(200);
    const key = new URL(JSON.parse(stored.body).image_url).pathname.split('/').slice(2).join('/');
    expect((await s3().send(new GetObjectCommand({ Bucket: bucketName('photos'), Key: key }))).ContentType).toBe('image/png');
  });
});
