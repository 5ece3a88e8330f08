import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../platform/aws.ts';
import { now } from '../platform/clock.ts';
import { tableName } from '../platform/resources.ts';

/** Rider profiles (spec 2.1), keyed by the identity provider's user id. */

export interface RiderProfile {
  idp_user_id: string;
  /** Stored trimmed and lower-case, which is how email sign-in finds it. */
  email: string;
  name: string;
  image_url: string | null;
  home_address: string | null;
  home_coords: string | null;
  work_address: string | null;
  work_coords: string | null;
  date_registered: string;
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export async function getRider(idpUserId: string): Promise<RiderProfile | null> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName('riders'), Key: { idp_user_id: idpUserId } }));
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

/** Creates the profile of a rider who signed up with the identity provider. */
export async function createRider(input: { idpUserId: string; email: string; name: string; dateRegistered?: string }): Promise<RiderProfile> {
  const profile: RiderProfile = {
    idp_user_id: input.idpUserId,
    email: normaliseEmail(input.email),
    name: input.name,
    image_url: null,
    home_address: null,
    home_coords: null,
    work_address: null,
    work_coords: null,
    date_registered: input.dateRegistered ?? now().toISOString(),
  };
  await dynamo().send(
    new PutCommand({ TableName: tableName('riders'), Item: profile, ConditionExpression: 'attribute_not_exists(idp_user_id)' }),
  );
  return profile;
}

/** The profile as the API shows it: exactly the spec's fields. */
export function profileView(profile: RiderProfile): RiderProfile {
  const { idp_user_id, email, name, image_url, home_address, home_coords, work_address, work_coords, date_registered } = profile;
  return { idp_user_id, email, name, image_url, home_address, home_coords, work_address, work_coords, date_registered };
}
