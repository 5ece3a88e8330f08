import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadError, downloadToFile } from '../../graph-builder/download.ts';

/** The extract download against a local server: redirects, validators, broken and stalled bodies. */

const body = Buffer.from('<osm version="0.6"></osm>\n');
const limits = { connectTimeoutMs: 1000, totalTimeoutMs: 1000 };
let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spoke-download-'));
  server = createServer((request, response) => {
    switch (request.url) {
      case '/extract.osm':
        if (request.headers['if-modified-since'] === 'Tue, 24 Nov 2026 03:00:00 GMT') return void response.writeHead(304).end();
        return void response.writeHead(200, { 'Content-Length': body.length, ETag: '"v1"', 'Last-Modified': 'Tue, 24 Nov 2026 03:00:00 GMT' }).end(body);
      case '/moved':
        return void response.writeHead(302, { Location: '/extract.osm' }).end();
      case '/loop':
        return void response.writeHead(302, { Location: '/loop' }).end();
      case '/truncated':
        response.writeHead(200, { 'Content-Length': body.length * 2 });
        response.write(body);
        return void response.socket?.destroy();
      case '/stalls-mid-body':
        response.writeHead(200, { 'Content-Length': body.length * 2 });
        return void response.write(body);
      default:
        return void response.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

describe('extract download', () => {
  it('follows redirects to the file and keeps the validators', async () => {
    const path = join(dir, 'a.osm');
    expect(await downloadToFile(`${base}/moved`, path, limits)).toEqual({ status: 'downloaded', bytes: body.length, validators: { etag: '"v1"', lastModified: 'Tue, 24 Nov 2026 03:00:00 GMT' } });
    expect(await readFile(path)).toEqual(body);
  });

  it('answers not-modified to a 304 and writes nothing', async () => {
    const path = join(dir, 'b.osm');
    expect(await downloadToFile(`${base}/extract.osm`, path, limits, { lastModified: 'Tue, 24 Nov 2026 03:00:00 GMT' })).toEqual({ status: 'not-modified' });
    expect(existsSync(path)).toBe(false);
  });

  it.each([
    ['an error status', '/missing', /failed: HTTP 404/],
    ['endless redirects', '/loop', /more than 5 redirects/],
    ['a body cut short', '/truncated', /failed/],
    ['a body that stops arriving', '/stalls-mid-body', /not complete within 1 s/],
  ])('fails on %s and leaves no partial file', async (_, url, message) => {
    const path = join(dir, `${url.slice(1)}.osm`);
    const failure = await downloadToFile(`${base}${url}`, path, limits).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DownloadError);
    expect(String(failure)).toMatch(message);
    expect(existsSync(path)).toBe(false);
  });
});
