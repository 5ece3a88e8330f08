import { randomUUID } from 'node:crypto';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { PostAuthenticationTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';
import { searchableName, trigramsOf } from '../../functions/riders/name-search.ts';
import { createRider, getRider, updateRider } from '../../functions/riders/profiles.ts';
import { handler as signInTrigger } from '../../functions/riders/sign-in-trigger-handler.ts';
import { lambdaContext } from '../../lib/local/queue.ts';
import { useLocalAws } from '../support/running-platform.ts';

/**
 * Accounts and their search index against the platform's DynamoDB (with its transactions): the
 * sign-in trigger creates an account once, and the index always matches the profile's name,
 * however renames race.
 */

/** Every index item of one rider (a scan is fine for a test, never for the platform). */
async function indexItemsOf(sub: string): Promise<{ trigram: string; searchable_name: string }[]> {
  const items: { trigram: string; searchable_name: string }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new ScanCommand({
        TableName: tableName('riderNameTrigrams'),
        FilterExpression: 'idp_user_id = :sub',
        ExpressionAttributeValues: { ':sub': sub },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    items.push(...((page.Items ?? []) as typeof items));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

const triggerEvent = (sub: string, email: string, name?: string): PostAuthenticationTriggerEvent => ({
  version: '1',
  triggerSource: 'PostAuthentication_Authentication',
  region: 'eu-west-2',
  userPoolId: 'eu-west-2_test',
  userName: sub,
  callerContext: { awsSdkVersion: 'test', clientId: 'test' },
  request: { userAttributes: { sub, email, ...(name ? { name } : {}) }, newDeviceUsed: false },
  response: {},
});

/** One invocation of the trigger, as Lambda runs it: with its own context. */
const signIn = (event: PostAuthenticationTriggerEvent) => signInTrigger(event, lambdaContext('rider-sign-in', 5));

describe('rider accounts', () => {
  it('are created by the first sign-in only; later sign-ins leave the rider\'s edits alone', async () => {
    useLocalAws();
    const sub = randomUUID();
    await signIn(triggerEvent(sub, ` Mixed.Case@Riders.TEST `, 'Ida  B. Wells'));
    const created = await getRider(sub, { consistent: true });
    expect(created).toMatchObject({ idp_user_id: sub, email: 'mixed.case@riders.test', name: 'Ida B. Wells', image_url: null });
    await updateRider(sub, { name: 'Ida Wells-Barnett', home_address: 'Chicago' });
    await signIn(triggerEvent(sub, 'mixed.case@riders.test', 'Ida  B. Wells'));
    expect(await getRider(sub, { consistent: true })).toMatchObject({ name: 'Ida Wells-Barnett', home_address: 'Chicago', date_registered: created!.date_registered });
    // Concurrent first sign-ins (two devices) make one account.
    const twin = randomUUID();
    await Promise.all(Array.from({ length: 5 }, () => signIn(triggerEvent(twin, 'twin@riders.test'))));
    expect((await getRider(twin, { consistent: true }))!.name).toBe('twin');
    expect(await indexItemsOf(twin)).toHaveLength(trigramsOf('twin').length);
  });

  it('keep the name index exactly in step with the name, however renames race', async () => {
    useLocalAws();
    const sub = randomUUID();
    await createRider({ idpUserId: sub, email: `${sub}@riders.test`, name: 'Starting Name' });
    const names = Array.from({ length: 8 }, (_, index) => `Racer Number ${index} Élan`);
    await Promise.all(names.map((name) => updateRider(sub, { name })));
    const final = (await getRider(sub, { consistent: true }))!;
    expect(names).toContain(final.name);
    const items = await indexItemsOf(sub);
    const expected = trigramsOf(searchableName(final.name));
    expect(items.map((item) => item.trigram).sort()).toEqual([...expected].sort());
    expect(new Set(items.map((item) => item.searchable_name))).toEqual(new Set([searchableName(final.name)]));
    // The index answers for the final name through its partitions.
    const partition = await dynamo().send(
      new QueryCommand({
        TableName: tableName('riderNameTrigrams'),
        KeyConditionExpression: 'trigram = :trigram AND begins_with(name_key, :name)',
        ExpressionAttributeValues: { ':trigram': expected[0], ':name': searchableName(final.name) },
      }),
    );
    expect(partition.Items!.map((item) => item.idp_user_id)).toContain(sub);
  });

  it('index a name up to 50 characters in one transaction, and rename between two long names', async () => {
    useLocalAws();
    const sub = randomUUID();
    const long = 'Abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVW';
    expect(long).toHaveLength(50);
    await createRider({ idpUserId: sub, email: `${sub}@riders.test`, name: long });
    await updateRider(sub, { name: 'Zyxwvutsrqponmlkjihgfedcba zyxwvutsrqponmlkjihgfed' });
    expect((await indexItemsOf(sub)).length).toBe(trigramsOf(searchableName('Zyxwvutsrqponmlkjihgfedcba zyxwvutsrqponmlkjihgfed')).length);
  });
});
