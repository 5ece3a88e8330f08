import { describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../functions/auth/api-keys.ts';
import { call, londonPair, newKey } from './support.ts';

const body = { coordinates: londonPair };
/** Any answer past the authorizer: the handler ran. */
const passedAuthorizer = (status: number) => status !== 401 && status !== 403;

describe('credentials on {base_url}', () => {
  it('refuses a request without credentials with the spec message', async () => {
    const response = await call('/directions/v2/', { body });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Authentication credentials were not provided.' });
  });

  it.each(['nonsense', 'spk_0123456789abcdef_' + 'A'.repeat(43), ''])('refuses an invalid key %j', async (bad) => {
    const response = await call('/directions/v2/', { body, headers: { apikey: bad } });
    expect(response.status).toBe(401);
    expect(response.body.error).toMatch(bad ? /^Invalid credentials$/ : /not provided/);
  });

  it('refuses a key whose secret part was altered', async () => {
    const key = await newKey();
    const altered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect((await call('/directions/v2/', { body, key: altered })).status).toBe(401);
  });

  it('accepts the key in the apikey header and in the Authorization forms', async () => {
    const key = await newKey({ name: 'forms', plan: 'enterprise', limits: { perMinute: 50, perHour: 50, perDay: 50 } });
    const forms: Record<string, string>[] = [{ apikey: key }, { Authorization: key }, { Authorization: `Api-Key ${key}` }, { Authorization: `Bearer ${key}` }];
    for (const headers of forms) {
      const response = await call('/directions/v2/', { body, headers });
      expect(passedAuthorizer(response.status), JSON.stringify(Object.keys(headers))).toBe(true);
    }
  });

  it('refuses a bearer token that is not a credential of this platform', async () => {
    const response = await call('/directions/v2/', { body, headers: { Authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Invalid credentials' });
  });

  it('refuses a revoked key from the next request on', async () => {
    const key = await newKey();
    expect(passedAuthorizer((await call('/directions/v2/', { body, key })).status)).toBe(true);
    await revokeApiKey(key.split('_')[1]!);
    const response = await call('/directions/v2/', { body, key });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Invalid credentials' });
  });

  it('lets the public fallback answer without credentials', async () => {
    expect((await call('/directions/v3/', { method: 'POST', body })).status).toBe(404);
  });
});
