import { describe, expect, it } from 'vitest';
import { hashApiKey, keyIdOf, looksLikeApiKey } from '../../functions/auth/api-keys.ts';
import { presentedCredential } from '../../functions/auth/credentials.ts';
import { fromAuthorizerContext, toAuthorizerContext, type Principal } from '../../functions/auth/principal.ts';
import { deriveUsageKey } from '../../functions/auth/usage-keys.ts';

const key = `spk_0123456789abcdef_${'x'.repeat(43)}`;

describe('presented credentials', () => {
  it.each([
    [{ apikey: key }, { kind: 'apikey', key }],
    [{ APIKEY: ` ${key} ` }, { kind: 'apikey', key }],
    [{ Authorization: key }, { kind: 'apikey', key }],
    [{ authorization: `Api-Key ${key}` }, { kind: 'apikey', key }],
    [{ Authorization: `Bearer ${key}` }, { kind: 'apikey', key }],
    [{ Authorization: 'Bearer eyJ.a.b' }, { kind: 'bearer', token: 'eyJ.a.b' }],
    [{}, null],
    [{ apikey: '' }, null],
  ])('reads %j', (headers, expected) => {
    expect(presentedCredential(headers)).toEqual(expected);
  });

  it('prefers the apikey header over Authorization', () => {
    expect(presentedCredential({ apikey: key, Authorization: 'Bearer eyJ.a.b' })).toEqual({ kind: 'apikey', key });
  });
});

describe('API key format', () => {
  it('exposes the key id and hashes the whole key', () => {
    expect(keyIdOf(key)).toBe('0123456789abcdef');
    expect(looksLikeApiKey(key)).toBe(true);
    expect(keyIdOf('spk_short_x')).toBeNull();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toBe(hashApiKey(`${key.slice(0, -1)}y`));
  });
});

describe('authorizer context', () => {
  it('round-trips a principal through the string map API Gateway passes on', () => {
    const principal: Principal = {
      kind: 'apikey',
      keyId: '0123456789abcdef',
      plan: 'partner',
      source: 'acme',
      limits: { perMinute: 30, perHour: 600, perDay: 6000 },
      rateBucket: 'key:0123456789abcdef',
    };
    const asDelivered = Object.fromEntries(Object.entries(toAuthorizerContext(principal)).map(([k, v]) => [k, String(v)]));
    expect(fromAuthorizerContext(asDelivered)).toEqual(principal);
    expect(fromAuthorizerContext({ ...asDelivered, plan: 'gold' })).toBeNull();
    expect(fromAuthorizerContext(null)).toBeNull();
  });
});

describe('usage-plan key values', () => {
  it('are HMAC-SHA256 of the key id under the usage-key secret (RFC 4231 test case 2)', () => {
    expect(deriveUsageKey('Jefe', 'what do ya want for nothing?')).toBe('spg_5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('differ per key id and per secret, fit API Gateway (20 to 128 characters) and hold nothing of the key', () => {
    const value = deriveUsageKey('secret', keyIdOf(key)!);
    expect(value).toMatch(/^spg_[0-9a-f]{64}$/);
    expect(value).not.toBe(deriveUsageKey('secret', 'fedcba9876543210'));
    expect(value).not.toBe(deriveUsageKey('other secret', keyIdOf(key)!));
    expect(value).not.toContain(key.split('_')[2]);
  });
});
