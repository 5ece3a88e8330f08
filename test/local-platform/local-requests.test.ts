import { describe, expect, it } from 'vitest';
import { isLocalHostName, refusalOf } from '../../lib/local/local-requests.ts';

/** Which requests the local servers answer: only those addressed to this machine by a name no rebinding can take. */
describe('requests the local servers answer', () => {
  const request = (headers: Record<string, string>) => ({ headers });

  it('take localhost, names under it and IP addresses as this machine, and nothing else', () => {
    for (const name of ['localhost', 'LOCALHOST', 'spoke.localhost', '127.0.0.1', '[::1]', '192.168.1.20', 'localhost.']) expect(isLocalHostName(name), name).toBe(true);
    for (const name of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', 'rebind.network', '']) expect(isLocalHostName(name), name).toBe(false);
  });

  it('refuse a Host that a rebound name would send, or none', () => {
    for (const host of ['127.0.0.1:4000', 'localhost:4000', '[::1]:4000', 'localhost']) expect(refusalOf(request({ host }), { pagesOfAnyOrigin: false }), host).toBeNull();
    for (const host of ['evil.example', 'evil.example:4000', '7f000001.rbndr.us:4000', 'a b']) expect(refusalOf(request({ host }), { pagesOfAnyOrigin: true }), host).toMatch(/localhost or an IP address/);
    expect(refusalOf(request({}), { pagesOfAnyOrigin: true })).toMatch(/localhost or an IP address/);
  });

  it('refuse pages of other origins where only SDKs and the platform call, and let the APIs answer them', () => {
    const fromPage = request({ host: '127.0.0.1:4000', origin: 'https://evil.example' });
    expect(refusalOf(fromPage, { pagesOfAnyOrigin: false })).toMatch(/no web page of another origin/);
    expect(refusalOf(fromPage, { pagesOfAnyOrigin: true })).toBeNull();
    expect(refusalOf(request({ host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4005' }), { pagesOfAnyOrigin: false })).toBeNull();
    expect(refusalOf(request({ host: '127.0.0.1:4000', origin: 'null' }), { pagesOfAnyOrigin: false })).toMatch(/no web page of another origin/);
  });
});
