import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { now } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { tableName } from '../../platform/resources.ts';
import { searchableName, trigramItems, type TrigramItem } from './name-search.ts';
import type { RiderProfile } from './rider-profile.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * Rider profiles (spec 2.1), keyed by the identity provider's user id. A profile and the search
 * index of its name (name-search.ts) are always written in one transaction.
 */

/** The fields a rider may change (spec 4.6, PATCH /user/). */
export const editableProfileFields = ['name', 'image_url', 'home_address', 'home_coords', 'work_address', 'work_coords'] as const;
export type EditableProfileField = (typeof editableProfileFields)[number];
export type ProfileChanges = Partial<Pick<RiderProfile, EditableProfileField>>;

/** Fields that are the identity provider's or the platform's, never the rider's to change. */
export const readOnlyProfileFields = ['idp_user_id', 'email', 'date_registered'] as const;

/** The public profile subset (spec 2.1): what other riders see in search, and the photo upload's answer. */
export interface PublicProfile {
  idp_user_id: string;
  name: string;
  image_url: string | null;
  date_registered: string;
}

/** The longest display name, in characters (code points); longer names from the identity provider are cut. */
export const MAX_NAME_CHARACTERS = 50;

/** The signed-in rider has no profile (spec 4.6: 404 'User not found'). */
export class RiderNotFoundError extends NotFoundError {
  constructor() {
    super('User not found');
  }
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export async function getRider(idpUserId: string, options: { consistent?: boolean } = {}): Promise<RiderProfile | null> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName('riders'), Key: { idp_user_id: idpUserId }, ConsistentRead: options.consistent ?? false }),
  );
  return (result.Item as RiderProfile | undefined) ?? null;
}

export async function findRiderByEmail(email: string): Promise<RiderProfile | null> {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: tableName('riders'),
      IndexName: 'by-email',
      KeyConditionExpression: 'email = :email',
      ExpressionAttributeValues: { ':email': normaliseEmail(email) },
      Limit: 1,
    }),
  );
  return (result.Items?.[0] as RiderProfile | undefined) ?? null;
}

const putTrigram = (item: TrigramItem) => ({ Put: { TableName: tableName('riderNameTrigrams'), Item: item } });
const deleteTrigram = (item: TrigramItem) => ({
  Delete: { TableName: tableName('riderNameTrigrams'), Key: { trigram: item.trigram, name_key: item.name_key } },
});

/** A display name as stored: trimmed, white space collapsed, at most `MAX_NAME_CHARACTERS`. */
export function displayName(name: string): string {
  return Array.from(name.trim().replace(/\s+/gu, ' ')).slice(0, MAX_NAME_CHARACTERS).join('');
}

/**
 * Creates the profile of a rider who signed in for the first time, with the search index of the
 * name, in one transaction. Returns null when the rider already has a profile.
 */
export async function createRider(input: { idpUserId: string; email: string; name: string; dateRegistered?: string }): Promise<RiderProfile | null> {
  const profile: RiderProfile = {
    idp_user_id: input.idpUserId,
    email: normaliseEmail(input.email),
    name: displayName(input.name) || normaliseEmail(input.email).split('@')[0]!,
    image_url: null,
    home_address: null,
    home_coords: null,
    work_address: null,
    work_coords: null,
    date_registered: input.dateRegistered ?? now().toISOString(),
  };
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName('riders'), Item: profile, ConditionExpression: 'attribute_not_exists(idp_user_id)' } },
          ...trigramItems(profile).map(putTrigram),
        ],
      }),
    );
  } catch (error) {
    if (conditionFailed(error, 0)) return null;
    throw error;
  }
  return profile;
}

/** Enough for a handful of the rider's own devices saving at once; each retry waits a little longer. */
const MAX_UPDATE_ATTEMPTS = 10;

/**
 * Applies a rider's changes. A change of name replaces the name's search index in the same
 * transaction, conditional on the name read a moment before, so two renames racing cannot leave
 * the index of the loser behind; the loser retries on the winner's profile.
 */
export async function updateRider(idpUserId: string, changes: ProfileChanges): Promise<RiderProfile> {
  for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
    const current = await getRider(idpUserId, { consistent: true });
    if (!current) throw new RiderNotFoundError();
    const next: RiderProfile = { ...current, ...changes };
    const fields = Object.keys(changes) as EditableProfileField[];
    if (fields.length === 0) return current;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const assignments = fields.map((field, index) => {
      names[`#f${index}`] = field;
      values[`:v${index}`] = changes[field];
      return `#f${index} = :v${index}`;
    });
    const renamed = searchableName(current.name) !== searchableName(next.name);
    names['#name'] = 'name';
    values[':current_name'] = current.name;
    const update = {
      TableName: tableName('riders'),
      Key: { idp_user_id: idpUserId },
      UpdateExpression: `SET ${assignments.join(', ')}`,
      ConditionExpression: 'attribute_exists(idp_user_id) AND #name = :current_name',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
    try {
      if (renamed) {
        await dynamo().send(
          new TransactWriteCommand({
            TransactItems: [{ Update: update }, ...trigramItems(current).map(deleteTrigram), ...trigramItems(next).map(putTrigram)],
          }),
        );
      } else {
        await dynamo().send(new UpdateCommand(update));
      }
      return next;
    } catch (error) {
      // The condition on the profile, the write's only or its transaction's first action.
      const conflict = conditionFailed(error, 0);
      if (!conflict) throw error;
      // The profile changed (or went) between the read and the write: read it again, after a jittered pause.
      await sleep(Math.random() * 20 * (attempt + 1));
    }
  }
  throw new Error(`The profile of a rider stayed contended over ${MAX_UPDATE_ATTEMPTS} attempts`);
}

/** Points the profile at the new photo; the profile must still exist. */
export async function setProfilePhoto(idpUserId: string, imageUrl: string): Promise<RiderProfile> {
  try {
    const updated = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('riders'),
        Key: { idp_user_id: idpUserId },
        UpdateExpression: 'SET image_url = :url',
        ConditionExpression: 'attribute_exists(idp_user_id)',
        ExpressionAttributeValues: { ':url': imageUrl },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return updated.Attributes as RiderProfile;
  } catch (error) {
    if (conditionFailed(error)) throw new RiderNotFoundError();
    throw error;
  }
}

/** The profile as the API shows it: exactly the spec's fields. */
export function profileView(profile: RiderProfile): RiderProfile {
  const { idp_user_id, email, name, image_url, home_address, home_coords, work_address, work_coords, date_registered } = profile;
  return { idp_user_id, email, name, image_url, home_address, home_coords, work_address, work_coords, date_registered };
}

export function publicProfileView(profile: RiderProfile): PublicProfile {
  const { idp_user_id, name, image_url, date_registered } = profile;
  return { idp_user_id, name, image_url, date_registered };
}
