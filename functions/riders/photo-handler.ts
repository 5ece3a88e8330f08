import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';
import { multipartFile } from '../http/multipart.ts';
import { MAX_IMAGE_BYTES } from '../images/processing.ts';
import { uploadImage } from '../images/uploads.ts';
import { riderOf } from './principal.ts';
import { getRider, publicProfileView, RiderNotFoundError, setProfilePhoto } from './profiles.ts';
import { publicProfile } from './response.ts';

/**
 * POST {app_base_url}/user/upload-photo/ (spec 4.6): a multipart part `file` becomes the rider's
 * profile photo. The upload itself (type from the bytes, metadata stripped, daily allowance,
 * storage) is functions/images/uploads.ts; here the stored photo replaces `image_url`. The old
 * photo's object stays where it was (spec).
 */

export const handler = endpoint(
  { id: 'user-photo', bodyFormat: 'multipart', maxFileBytes: MAX_IMAGE_BYTES, body: z.object({ file: multipartFile('file') }), response: publicProfile },
  async ({ principal, body }) => {
    const rider = riderOf(principal);
    if (!(await getRider(rider.sub))) throw new RiderNotFoundError();
    // Refusals (not an image, too large, the daily allowance, storing failed) are domain errors answered by the boundary.
    const profile = await uploadImage({ uploaderId: rider.sub, kind: 'profile', bytes: body.file.content }, (image) =>
      setProfilePhoto(rider.sub, image.url),
    );
    return { body: publicProfileView(profile) };
  },
);
