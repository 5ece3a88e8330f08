import { describe, expect, it } from 'vitest';
import { RIDER_SESSION_LIMITS } from '../../functions/auth/principal.ts';
import { directionsWith } from '../oauth/oauth-support.ts';
import { signedInRider } from './rider-support.ts';
import { call, londonPair, newKey } from '../support/running-platform.ts';

/** Spec 5.1: a rider's own session works on the routing endpoints without an API key, with higher limits. */

describe("a rider's session on {base_url}", () => {
  it("gets directions without an API key, counted in the rider's own bucket at more than the free plan allows", async () => {
    const rider = await signedInRider();
    const first = await directionsWith(rider.token);
    expect(first.status).toBe(200);
    expect(first.body.route).toBeTruthy();
    expect(Number(first.headers.get('x-ratelimit-limit'))).toBe(RIDER_SESSION_LIMITS.perMinute);
    expect(RIDER_SESSION_LIMITS.perMinute).toBeGreaterThan(10);
    const second = await directionsWith(rider.token, {}, '/directions/');
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);

    // Another rider and an API key each have their own bucket.
    const other = await directionsWith((await signedInRider()).token);
    expect(other.headers.get('x-ratelimit-remaining')).toBe(String(RIDER_SESSION_LIMITS.perMinute - 1));
    const keyed = await call('/directions/v2/', { key: await newKey(), body: { coordinates: londonPair } });
    expect(keyed.headers.get('x-ratelimit-limit')).toBe('10');
  });

  it('is refused when forged or expired, like any credential', async () => {
    const rider = await signedInRider();
    const [header, payload] = rider.token.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    expect(await directionsWith(forged)).toMatchObject({ status: 401, body: { error: 'Invalid credentials' } });
  });
});
