import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RIDER_ADMIN_GROUP } from '../../platform/resources.ts';
import { createRider } from '../../functions/riders/profiles.ts';
import { riderAccessToken } from '../oauth/oauth-support.ts';
import { app, signedInRider, type SignedInRider } from './rider-support.ts';
import { platform, useLocalAws } from '../support/running-platform.ts';

/** GET {app_base_url}/api/users/search/ (spec 4.6): name search over the trigram index. */

const search = (rider: { headers: Record<string, string> }, q: string) => app(`/api/users/search/?q=${encodeURIComponent(q)}`, rider);

/** A signed-in rider renamed to `name`. */
async function riderNamed(name: string): Promise<SignedInRider> {
  const rider = await signedInRider();
  expect((await app('/user/', rider, { method: 'PATCH', body: { name } })).status).toBe(200);
  return rider;
}

async function makeAdmin(rider: SignedInRider): Promise<SignedInRider> {
  const response = await fetch(`${platform.identity_provider.url}/admin/group-membership`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${platform.identity_provider.admin_secret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: rider.email, group: RIDER_ADMIN_GROUP, member: true }),
  });
  expect(response.status).toBe(200);
  const token = await riderAccessToken(rider);
  return { ...rider, token, headers: { Authorization: `Bearer ${token}` } };
}

describe('user search', () => {
  it('matches part of a name, ignoring case and accents, and shows others only the public subset', async () => {
    const tag = randomUUID().slice(0, 8);
    const [josé, caller] = await Promise.all([riderNamed(`José Ñúñez-${tag}`), signedInRider()]);
    await app('/user/', josé, { method: 'PATCH', body: { home_address: '1 Private Road', home_coords: '-0.1,51.5' } });
    for (const q of [`nunez-${tag}`, `JOSÉ ÑÚÑ`.toLowerCase(), `jose nunez-${tag.slice(0, 4)}`, `ÉZ-${tag.toUpperCase()}`]) {
      const found = await search(caller, q);
      expect(found.status, q).toBe(200);
      const match = found.body.users.find((user: { idp_user_id: string }) => user.idp_user_id === josé.sub);
      expect(match, q).toBeDefined();
      expect(Object.keys(match).sort()).toEqual(['date_registered', 'idp_user_id', 'image_url', 'name']);
      expect(match.name).toBe(`José Ñúñez-${tag}`);
    }
    const exact = await search(caller, `ñez-${tag}`);
    expect(exact.body).toEqual({ count: 1, users: [exact.body.users[0]] });
    expect((await search(caller, `zz${tag}zz`)).body).toEqual({ count: 0, users: [] });
  });

  it('gives admins (the identity provider\'s admin group) the full profile', async () => {
    const tag = randomUUID().slice(0, 8);
    const target = await riderNamed(`Grace Hopper ${tag}`);
    await app('/user/', target, { method: 'PATCH', body: { work_address: 'Harvard Mark I' } });
    const admin = await makeAdmin(await signedInRider());
    const found = await search(admin, `hopper ${tag}`);
    expect(found.body).toEqual({
      count: 1,
      users: [expect.objectContaining({ idp_user_id: target.sub, email: target.email, work_address: 'Harvard Mark I', home_coords: null })],
    });
    expect(Object.keys(found.body.users[0]).length).toBe(9);
  });

  it('returns at most 50, in name order, with count', async () => {
    const tag = randomUUID().slice(0, 6);
    useLocalAws();
    // Accounts as their first sign-in creates them, without 55 sign-ins.
    await Promise.all(
      Array.from({ length: 55 }, (_, index) =>
        createRider({ idpUserId: randomUUID(), email: `pack-${tag}-${index}@riders.test`, name: `Pack ${tag} ${String(index).padStart(2, '0')}` }),
      ),
    );
    const found = await search(await signedInRider(), `pack ${tag}`);
    expect(found.body.count).toBe(50);
    expect(found.body.users.map((user: { name: string }) => user.name)).toEqual(
      Array.from({ length: 50 }, (_, index) => `Pack ${tag} ${String(index).padStart(2, '0')}`),
    );
  });

  it('follows renames: the old name is no longer found, the new one is', async () => {
    const tag = randomUUID().slice(0, 8);
    const rider = await riderNamed(`Oldname ${tag}`);
    expect((await search(rider, `oldname ${tag}`)).body.count).toBe(1);
    await app('/user/', rider, { method: 'PATCH', body: { name: `Newname ${tag}` } });
    expect((await search(rider, `oldname ${tag}`)).body.count).toBe(0);
    expect((await search(rider, `newname ${tag}`)).body.users[0].idp_user_id).toBe(rider.sub);
  });

  it('answers 400 for a query under 3 characters or missing', async () => {
    const rider = await signedInRider();
    for (const q of ['ab', '  a ', 'é']) expect(await search(rider, q), q).toMatchObject({ status: 400, body: { error: 'q: must be at least 3 characters' } });
    expect((await app('/api/users/search/', rider)).status).toBe(400);
    expect((await search(rider, 'x'.repeat(101))).status).toBe(400);
  });
});
