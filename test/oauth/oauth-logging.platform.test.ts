import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { approvedCode, authorizeQuery, ConsentSession, directionsWith, exchangeCode, newRider, pkce, refreshTokens, registerApp } from './oauth-support.ts';
import { call, platform } from '../support/running-platform.ts';

describe('logs of rider login', () => {
  it('hold no tokens, codes, secrets or anything about the rider', async () => {
    const from = new Date().toISOString();
    const app = await registerApp('confidential');
    const rider = await newRider();
    const issued = await approvedCode(app, rider);
    const tokens = (await exchangeCode(app, issued)).body;
    const refreshed = (await refreshTokens(app, tokens.refresh_token)).body;
    await directionsWith(refreshed.access_token);
    await call('/user/', { api: 'app', headers: { Authorization: `Bearer ${refreshed.access_token}` } });
    await exchangeCode(app, issued);
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge));
    await session.signInWithEmail(rider);
    await sleep(300);

    const lines = (await readFile(platform.logFile, 'utf8')).split('\n').filter((line) => line.startsWith('{'));
    // The local stand-in for email: the code is in the log on purpose, on its own line, without the address.
    const mail = lines.filter((line) => line.includes('"local mail: sign-in code"'));
    expect(mail.length).toBeGreaterThan(0);
    const log = lines.filter((line) => !mail.includes(line)).join('\n');
    expect(log).toContain(`"principal":"oauth:${app.clientId}"`);
    for (const secret of [
      tokens.access_token,
      tokens.refresh_token,
      tokens.id_token,
      refreshed.access_token,
      refreshed.refresh_token,
      issued.code,
      issued.verifier,
      app.secret!,
      rider.email,
      rider.password,
      rider.sub,
      rider.name,
      session.requestId,
      session.cookie.split('=')[1]!,
    ]) {
      expect(log.includes(secret), `log contains ${secret.slice(0, 12)}…`).toBe(false);
    }
    expect(mail.join('\n')).not.toContain(rider.email);
    // Every line written while the rider logged in, the sign-in code's included, says which
    // request wrote it (the platform's start-up lines, before any request, have none to say).
    const during = lines.filter((line) => (JSON.parse(line) as { timestamp: string }).timestamp >= from);
    expect(during.length).toBeGreaterThan(0);
    for (const line of during) expect((JSON.parse(line) as { correlation_id?: string }).correlation_id, line).toMatch(/^[0-9a-f-]{36}$/);
  });
});
