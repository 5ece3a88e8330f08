import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { call, newKey, platform } from './support.ts';

describe('logs', () => {
  it('record requests without keys, tokens or request contents', async () => {
    const key = await newKey();
    const secretish = 'Bearer not-a-real-token-but-secret-looking-0123456789';
    const personal = { coordinates: [[-0.123456789, 51.987654321], [-0.1111, 51.2222]], note: 'rider@example.com' };
    await call('/directions/v2/', { key, body: personal });
    await call('/directions/v2/', { headers: { Authorization: secretish }, body: personal });
    await call('/directions/v2/', { headers: { apikey: `${key}x` }, body: personal });
    await call('/directions/v2/', { key, rawBody: '{"broken": "rider@example.com"', method: 'POST' });
    // Log lines are written asynchronously by the platform process.
    await new Promise((resolve) => setTimeout(resolve, 300));

    // The structured log lines; the start-up banner prints the demo keys on purpose.
    const log = (await readFile(platform.logFile, 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .join('\n');
    expect(log).toMatch(/"message":"request"/);
    expect(log).toMatch(/"message":"credential refused"/);
    const secret = key.split('_').slice(2).join('_');
    for (const forbidden of [key, secret, 'not-a-real-token', 'rider@example.com', '51.987654321', platform.demo.api_key, platform.demo.partner_api_key]) {
      expect(log, `log contains ${forbidden}`).not.toContain(forbidden);
    }
  });
});
