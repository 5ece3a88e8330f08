import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { newRider, registerApp, riderAccessToken, riderTokens, tokensFor } from './oauth-support.ts';
import { call, newKey } from './support.ts';

/** GET {app_base_url}/user/ (spec 4.6) with the identity provider's rider tokens. */

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

  it('answers 404 for a signed-in rider without a profile', async () => {
    const rider = await newRider({ profile: false });
    const response = await user({ Authorization: `Bearer ${await riderAccessToken(rider)}` });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'User not found' });
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

  it('answers 403 to a third-party app\'s OAuth access token', async () => {
    const tokens = await tokensFor(await registerApp());
    const response = await user({ Authorization: `Bearer ${tokens.access_token}` });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'OAuth access tokens are not accepted by this API' });
  });
});
