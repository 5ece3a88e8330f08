import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../platform/endpoints.ts';
import { newRider, registerApp, riderAccessToken, riderTokens, tokensFor } from '../oauth/oauth-support.ts';
import { app, deleteProfile, signedInRider } from './rider-support.ts';
import { call, newKey } from '../support/running-platform.ts';

/** The rider's account on {app_base_url} (spec 4.6): identity, GET and PATCH /user/. */

const user = (headers: Record<string, string>) => call('/user/', { api: 'app', headers });

describe('the signed-in rider on {app_base_url}', () => {
  it("answers the rider's own profile, exactly the spec's fields", async () => {
    const rider = await newRider();
    const response = await user({ Authorization: `Bearer ${await riderAccessToken(rider)}` });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(
      ['date_registered', 'email', 'home_address', 'home_coords', 'idp_user_id', 'image_url', 'name', 'work_address', 'work_coords'].sort(),
    );
    expect(response.body).toMatchObject({ idp_user_id: rider.sub, email: rider.email, name: rider.name, image_url: null });
    expect(response.headers.get('x-ratelimit-limit')).toBeTruthy();
  });

  it('creates the account on first sign-in from the identity provider\'s attributes, and keeps it on the next', async () => {
    const rider = await newRider({ profile: false });
    const token = await riderAccessToken(rider);
    const first = await user({ Authorization: `Bearer ${token}` });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ idp_user_id: rider.sub, email: rider.email, name: rider.name, image_url: null, home_coords: null });
    expect(Date.parse(first.body.date_registered)).toBeGreaterThan(Date.now() - 60_000);

    const renamed = await call('/user/', { api: 'app', method: 'PATCH', headers: { Authorization: `Bearer ${token}` }, body: { name: 'Chosen Name' } });
    expect(renamed.status).toBe(200);
    const again = await user({ Authorization: `Bearer ${await riderAccessToken(rider)}` });
    expect(again.body).toEqual({ ...first.body, name: 'Chosen Name' });
  });

  it('answers 404 when the signed-in rider has no account (any more)', async () => {
    const rider = await signedInRider();
    await deleteProfile(rider.sub);
    const response = await user(rider.headers);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'User not found' });
    const patched = await app('/user/', rider, { method: 'PATCH', body: { name: 'Ghost' } });
    expect(patched).toMatchObject({ status: 404, body: { error: 'User not found' } });
  });

  it('answers 401 without credentials, with an API key, and with a forged rider token', async () => {
    expect(await user({})).toMatchObject({ status: 401, body: { error: 'Authentication credentials were not provided.' } });
    const keyed = await user({ apikey: await newKey() });
    expect(keyed.status).toBe(401);
    expect(keyed.body.error).toMatch(/requires a signed-in rider/);

    const real = decodeJwt(await riderAccessToken(await newRider()));
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(real).setProtectedHeader({ alg: 'RS256', kid: 'forged' }).sign(privateKey);
    expect(await user({ Authorization: `Bearer ${forged}` })).toMatchObject({ status: 401, body: { error: 'Invalid credentials' } });
  });

  it("refuses id tokens in place of an access token: the identity provider's and this platform's", async () => {
    const { id_token: riderIdToken } = await riderTokens(await newRider());
    expect(decodeJwt(riderIdToken).token_use).toBe('id');
    expect((await user({ Authorization: `Bearer ${riderIdToken}` })).status).toBe(401);
    const tokens = await tokensFor(await registerApp());
    expect((await user({ Authorization: `Bearer ${tokens.id_token}` })).status).toBe(401);
  });

  it("answers 403 to a third-party app's OAuth access token on every rider endpoint, and 401 without credentials", async () => {
    const tokens = await tokensFor(await registerApp());
    const riderEndpoints = endpoints.filter((definition) => definition.api === 'app' && definition.auth === 'rider');
    expect(riderEndpoints.map((definition) => definition.id).sort()).toEqual(
      ['bikes-nearby', 'user-photo', 'user-profile', 'user-ride', 'user-rides', 'user-search', 'user-stats'].sort(),
    );
    for (const definition of riderEndpoints) {
      for (const method of definition.methods) {
        const path = `${definition.paths[0]!.replace('{id}', '1')}/${method === 'GET' && definition.id === 'user-search' ? '?q=abc' : ''}`;
        const body = method === 'GET' ? {} : { body: {} };
        const refused = await call(path, { api: 'app', method, headers: { Authorization: `Bearer ${tokens.access_token}` }, ...body });
        expect(refused, `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'OAuth access tokens are not accepted by this API' } });
        const anonymous = await call(path, { api: 'app', method, ...body });
        expect(anonymous, `${method} ${path}`).toMatchObject({ status: 401, body: { error: 'Authentication credentials were not provided.' } });
      }
    }
  });
});

describe('PATCH {app_base_url}/user/', () => {
  const patch = (rider: { headers: Record<string, string> }, body: unknown) => app('/user/', rider, { method: 'PATCH', body });

  it('changes only the fields sent and names them in updated_fields', async () => {
    const rider = await signedInRider();
    const before = (await user(rider.headers)).body;
    const response = await patch(rider, { home_address: '  1 Gower Street, London  ', home_coords: '-0.1337, 51.5246', work_coords: null });
    expect(response).toMatchObject({ status: 200, body: { status: 'success', updated_fields: ['home_address', 'home_coords', 'work_coords'] } });
    const after = (await user(rider.headers)).body;
    expect(after).toEqual({ ...before, home_address: '1 Gower Street, London', home_coords: '-0.1337,51.5246', work_coords: null });

    expect(await patch(rider, { name: 'Ada  Lovelace ', work_address: 'British Library' })).toMatchObject({ status: 200, body: { updated_fields: ['name', 'work_address'] } });
    expect((await user(rider.headers)).body).toEqual({ ...after, name: 'Ada Lovelace', work_address: 'British Library' });
    expect(await patch(rider, {})).toMatchObject({ status: 200, body: { status: 'success', updated_fields: [] } });
  });

  it('answers every problem in one map from field to messages, and changes nothing', async () => {
    const rider = await signedInRider();
    const before = (await user(rider.headers)).body;
    const response = await patch(rider, {
      email: 'someone@else.test',
      idp_user_id: 'another',
      date_registered: '2001-01-01T00:00:00Z',
      name: 'x'.repeat(51),
      home_coords: '200,10',
      work_coords: '-0.1,95',
      home_address: 'y'.repeat(201),
      image_url: 'https://tracker.example/pixel.gif',
      homeCoords: '1,2',
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      email: ['This field is read-only.'],
      idp_user_id: ['This field is read-only.'],
      date_registered: ['This field is read-only.'],
      name: ['Must be at most 50 characters.'],
      home_coords: ['Longitude must be between -180 and 180.'],
      work_coords: ['Latitude must be between -90 and 90.'],
      home_address: ['Must be at most 200 characters.'],
      image_url: ['Must be null or the URL of a photo uploaded with POST /user/upload-photo/.'],
      homeCoords: [expect.stringMatching(/^Unknown field/)],
    });
    expect(response.body.error).toContain('email: This field is read-only.');
    for (const [field, messages] of Object.entries(response.body)) if (field !== 'error') expect(Array.isArray(messages)).toBe(true);
    expect((await user(rider.headers)).body).toEqual(before);
  });

  it('refuses coordinates that are not "longitude,latitude", a null or blank name, and non-string values', async () => {
    const rider = await signedInRider();
    for (const coords of ['51.5,-0.1,3', 'north', '1;2', '', '0x1,2']) {
      expect((await patch(rider, { home_coords: coords })).body.home_coords, coords).toEqual([expect.stringMatching(/longitude,latitude/)]);
    }
    expect((await patch(rider, { name: null })).body.name).toEqual(['This field may not be null.']);
    expect((await patch(rider, { name: '   ' })).body.name).toEqual(['May not be blank.']);
    expect((await patch(rider, { home_address: 12 })).body.home_address).toEqual(['Must be a string or null.']);
    expect((await patch(rider, { home_coords: '180,-90' })).status).toBe(200);
  });

  it('answers {error} for a body that is not JSON or not an object', async () => {
    const rider = await signedInRider();
    const broken = await app('/user/', rider, { method: 'PATCH', rawBody: '{"name": "unterminated', headers: { 'Content-Type': 'application/json' } });
    expect(broken).toMatchObject({ status: 400, body: { error: 'Invalid JSON body' } });
    expect(await patch(rider, ['name'])).toMatchObject({ status: 400, body: { error: 'Request body must be a JSON object' } });
  });

  it("never shows or changes another rider's profile", async () => {
    const [one, two] = await Promise.all([signedInRider(), signedInRider()]);
    await patch(one, { home_address: 'Secret street 1' });
    const seenByTwo = await user(two.headers);
    expect(seenByTwo.body.idp_user_id).toBe(two.sub);
    expect(JSON.stringify(seenByTwo.body)).not.toContain('Secret street');
    // A request naming the other rider's id changes only the caller.
    expect((await patch(two, { idp_user_id: one.sub })).status).toBe(400);
    expect((await user(one.headers)).body.home_address).toBe('Secret street 1');
  });
});
