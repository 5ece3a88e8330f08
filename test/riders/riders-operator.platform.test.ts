import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { RIDER_APP_CLIENT_ID } from '../../lib/local/identity-provider.ts';
import { newRider, riderAccessToken } from '../oauth/oauth-support.ts';
import { app, signedInRider } from './rider-support.ts';
import { call, platform, runAdmin } from '../support/running-platform.ts';

/** `npm run admin -- riders …` against the running local platform: riders' tokens for curl, and the admin role (spec 5.6). */

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

  it('lists what riders typed with control characters escaped', async () => {
    const email = `rider-${randomUUID()}@riders.test`;
    const response = await fetch(`${platform.identity_provider.url}/admin/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${platform.identity_provider.admin_secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, name: 'Eve\u001b[31m\r\n2026-11-24 INFO rider promoted\u009b2J', password: randomUUID() }),
    });
    expect(response.status).toBe(201);
    const listed = await admin('riders', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    // The CLI's own line breaks, and no other control character.
    expect(listed.stdout.replaceAll('\n', '')).not.toMatch(/\p{Cc}/u);
    expect(listed.stdout).toContain(`${email}  Eve\\u001b[31m\\r\\n2026-11-24 INFO rider promoted\\u009b2J`);
  });

  it('names an unknown rider and a missing email as usage errors', async () => {
    const unknown = await admin('riders', 'grant-admin', 'nobody-at-all@riders.test');
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain('No rider with the email nobody-at-all@riders.test');
    expect((await admin('riders', 'grant-admin')).stderr).toContain('Usage: admin riders grant-admin <email>');
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('operator CLI: riders token', () => {
  it("prints the rider app's access token alone on stdout, which the rider, bikes and events endpoints accept; the first one creates the account", async () => {
    const rider = await newRider({ profile: false });
    const issued = await admin('riders', 'token', rider.email);
    expect(issued.code, issued.stderr).toBe(0);
    expect(issued.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(issued.stderr).toContain('Authorization: Bearer <token>');
    const token = issued.stdout.trim();
    expect(decodeJwt(token)).toMatchObject({ iss: platform.identity_provider.url, sub: rider.sub, token_use: 'access', client_id: RIDER_APP_CLIENT_ID });
    const bearer = { headers: { Authorization: `Bearer ${token}` } };

    expect(await app('/user/', bearer)).toMatchObject({ status: 200, body: { idp_user_id: rider.sub, email: rider.email, name: rider.name } });
    expect((await app('/user/stats/', bearer)).status).toBe(200);
    expect(await app('/user/routes/', bearer)).toMatchObject({ status: 200, body: { routes: [] } });
    const bikes = await app('/bikes/nearby/?latitude=51.5246&longitude=-0.1337&radius=500', bearer);
    expect(bikes.status).toBe(200);
    expect(bikes.body.metadata.providers).toEqual(['Santander Cycles']);
    expect((await call('/events/nearby/?latitude=51.5246&longitude=-0.1337&radius=3000', { api: 'app', ...bearer })).status).toBe(200);
  });

  it('prints the demo rider\'s token from local-platform.json\'s email', async () => {
    const issued = await admin('riders', 'token', platform.demo.rider_email);
    expect(issued.code, issued.stderr).toBe(0);
    expect(decodeJwt(issued.stdout.trim()).sub).toBe(platform.demo.rider_idp_user_id);
  });

  it('refuses, printing no token, an unknown rider, a missing email, --aws, and a platform that is not running', async () => {
    const unknown = await admin('riders', 'token', 'nobody-at-all@riders.test');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('No rider with the email nobody-at-all@riders.test at the local identity provider');

    expect(await admin('riders', 'token')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('Usage: admin riders token <email>') });

    const aws = await admin('--aws', 'riders', 'token', platform.demo.rider_email);
    expect(aws).toMatchObject({ code: 2, stdout: '' });
    expect(aws.stderr).toContain('riders token works on the local platform only');

    const neverStarted = await runAdmin(['riders', 'token', platform.demo.rider_email], { SPOKE_STATE_DIR: await mkdtemp(join(tmpdir(), 'no-platform-')) });
    expect(neverStarted).toMatchObject({ code: 2, stdout: '' });
    expect(neverStarted.stderr).toContain('No local platform found');

    // The info file of a platform that has since stopped.
    const stopped = await mkdtemp(join(tmpdir(), 'stopped-platform-'));
    const idp = `http://127.0.0.1:${await closedPort()}`;
    await writeFile(join(stopped, 'local-platform.json'), JSON.stringify({ ...platform, identity_provider: { ...platform.identity_provider, url: idp } }));
    const notRunning = await runAdmin(['riders', 'token', platform.demo.rider_email], { SPOKE_STATE_DIR: stopped });
    expect(notRunning).toMatchObject({ code: 2, stdout: '' });
    expect(notRunning.stderr).toContain(`The local platform is not running: its identity provider at ${idp} does not answer`);
  });
});
