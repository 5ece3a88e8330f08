import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { riderAccessToken } from './oauth-support.ts';
import { app, signedInRider } from './rider-support.ts';
import { runAdmin } from './support.ts';

/** `npm run admin -- riders …` against the running local platform: the admin role (spec 5.6). */

const admin = (...args: string[]) => runAdmin(args);

describe('operator CLI: riders', () => {
  it('grant-admin puts the rider in the admin group: new tokens say so and search shows full profiles; revoke-admin undoes it', async () => {
    const tag = randomUUID().slice(0, 8);
    const [operator, target] = await Promise.all([signedInRider(), signedInRider()]);
    await app('/user/', target, { method: 'PATCH', body: { name: `Target ${tag}`, home_address: 'Admins only' } });
    const search = async (token: string) => (await app(`/api/users/search/?q=target ${tag}`, { headers: { Authorization: `Bearer ${token}` } })).body.users[0];
    expect(await search(operator.token)).not.toHaveProperty('home_address');

    const granted = await admin('riders', 'grant-admin', operator.email);
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toContain(`${operator.email} is an admin`);
    // The token from before keeps its claims; the next sign-in carries the group.
    expect(decodeJwt(operator.token)['cognito:groups']).toBeUndefined();
    const adminToken = await riderAccessToken(operator);
    expect(decodeJwt(adminToken)['cognito:groups']).toEqual(['admin']);
    expect(await search(adminToken)).toMatchObject({ idp_user_id: target.sub, email: target.email, home_address: 'Admins only' });

    const listed = await admin('riders', 'list');
    expect(listed.stdout).toMatch(new RegExp(`${operator.sub}\\s+admin\\s+account\\s+${operator.email.replace('.', '\\.')}`));
    expect(listed.stdout).toMatch(new RegExp(`${target.sub}\\s+rider\\s+account`));

    expect((await admin('riders', 'revoke-admin', operator.email)).code).toBe(0);
    expect(decodeJwt(await riderAccessToken(operator))['cognito:groups']).toBeUndefined();
  });

  it('names an unknown rider and a missing email as usage errors', async () => {
    const unknown = await admin('riders', 'grant-admin', 'nobody-at-all@riders.test');
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain('No rider with the email nobody-at-all@riders.test');
    expect((await admin('riders', 'grant-admin')).stderr).toContain('Usage: admin riders grant-admin <email>');
  });
});
