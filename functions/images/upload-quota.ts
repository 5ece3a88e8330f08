import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { nowSeconds } from '../../platform/clock.ts';
import { LimitReachedError } from '../../platform/errors.ts';
import { tableName } from '../../platform/resources.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * Spec 8: at most 100 image uploads per 24 hours per rider, counted across every kind of image
 * upload (profile photos now; event, destination and route images use the same counter). One
 * item per rider holds the current window: it opens with the first upload after the previous
 * window closed and lasts 24 hours. Each upload takes its slot with a single atomic conditional
 * update (`uploads < 100` in an open window), so any number of concurrent uploads, from any
 * number of containers, can never take more than the limit; no read-modify-write, no retry storm.
 */

export const IMAGE_UPLOADS_PER_WINDOW = 100;
export const IMAGE_UPLOAD_WINDOW_SECONDS = 24 * 60 * 60;
export const IMAGE_UPLOAD_LIMIT_MESSAGE = 'Rate limit exceeded: 100 images per 24 hours';

const MAX_ATTEMPTS = 5;

interface QuotaItem {
  idp_user_id: string;
  uploads: number;
  window_started_at: number;
  window_ends_at: number;
  expires_at: number;
}

/** A slot taken in one window; giving it back only counts in that same window. */
export interface UploadReservation {
  idpUserId: string;
  windowStartedAt: number;
  /** Uploads left in the window after this one. */
  remaining: number;
}

export class ImageUploadLimitError extends LimitReachedError {
  constructor(retryAfterSeconds: number) {
    super(IMAGE_UPLOAD_LIMIT_MESSAGE, retryAfterSeconds);
  }
}

/** Takes one upload slot for the rider, or throws `ImageUploadLimitError` with the seconds until the window closes. */
export async function reserveImageUpload(idpUserId: string): Promise<UploadReservation> {
  const table = tableName('imageUploads');
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = nowSeconds();
    try {
      const counted = await dynamo().send(
        new UpdateCommand({
          TableName: table,
          Key: { idp_user_id: idpUserId },
          UpdateExpression: 'ADD uploads :one',
          ConditionExpression: 'window_ends_at > :now AND uploads < :limit',
          ExpressionAttributeValues: { ':one': 1, ':now': now, ':limit': IMAGE_UPLOADS_PER_WINDOW },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const item = counted.Attributes as QuotaItem;
      return { idpUserId, windowStartedAt: item.window_started_at, remaining: IMAGE_UPLOADS_PER_WINDOW - item.uploads };
    } catch (error) {
      if (!conditionFailed(error)) throw error;
    }
    // No open window, or a full one: open a new window if none is open.
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: table,
          Key: { idp_user_id: idpUserId },
          UpdateExpression: 'SET uploads = :one, window_started_at = :now, window_ends_at = :ends, expires_at = :expires',
          ConditionExpression: 'attribute_not_exists(window_ends_at) OR window_ends_at <= :now',
          ExpressionAttributeValues: {
            ':one': 1,
            ':now': now,
            ':ends': now + IMAGE_UPLOAD_WINDOW_SECONDS,
            ':expires': now + 2 * IMAGE_UPLOAD_WINDOW_SECONDS,
          },
        }),
      );
      return { idpUserId, windowStartedAt: now, remaining: IMAGE_UPLOADS_PER_WINDOW - 1 };
    } catch (error) {
      if (!conditionFailed(error)) throw error;
    }
    // A window is open: full, or opened by a concurrent upload a moment ago (then try again).
    const { Item } = await dynamo().send(new GetCommand({ TableName: table, Key: { idp_user_id: idpUserId }, ConsistentRead: true }));
    const item = Item as QuotaItem | undefined;
    if (item && item.window_ends_at > now && item.uploads >= IMAGE_UPLOADS_PER_WINDOW) {
      throw new ImageUploadLimitError(Math.max(1, item.window_ends_at - now));
    }
  }
  throw new Error(`The image upload counter of a rider stayed contended over ${MAX_ATTEMPTS} attempts`);
}

/** Gives a slot back after an upload that did not happen (the image was refused or could not be stored). */
export async function releaseImageUpload(reservation: UploadReservation): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('imageUploads'),
        Key: { idp_user_id: reservation.idpUserId },
        UpdateExpression: 'ADD uploads :minus_one',
        ConditionExpression: 'window_started_at = :started AND uploads > :zero',
        ExpressionAttributeValues: { ':minus_one': -1, ':started': reservation.windowStartedAt, ':zero': 0 },
      }),
    );
  } catch (error) {
    // The window has closed since: its count no longer matters.
    if (!conditionFailed(error)) throw error;
  }
}

/** Uploads counted in the rider's open window (0 when none is open). */
export async function imageUploadsInWindow(idpUserId: string): Promise<number> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName('imageUploads'), Key: { idp_user_id: idpUserId }, ConsistentRead: true }),
  );
  const item = Item as QuotaItem | undefined;
  return item && item.window_ends_at > nowSeconds() ? item.uploads : 0;
}
