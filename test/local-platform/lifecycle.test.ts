import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { API_KEY_RECORD_CACHE_MS } from '../../functions/auth/api-keys.ts';
import { TEST_CLOCK_HEADER } from '../../lib/local/gateway.ts';
import { startLocalProcess, type PlatformInfo } from '../support/local-process.ts';
import { until } from '../support/until.ts';

const run = promisify(execFile);

async function admin(stateDir: string, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], {
    cwd: projectRoot,
    env: { ...process.env, SPOKE_STATE_DIR: stateDir },
  });
}

/** `laterSeconds` moves the platform's clock for this request (a platform started with `SPOKE_TEST_CLOCK=1`). */
async function directionsStatus(info: PlatformInfo, key: string, laterSeconds?: number): Promise<number> {
  const response = await fetch(`${info.base_url}/directions/v2/`, {
    method: 'POST',
    headers: { apikey: key, 'Content-Type': 'application/json', ...(laterSeconds === undefined ? {} : { [TEST_CLOCK_HEADER]: String(laterSeconds) }) },
    body: JSON.stringify({ coordinates: [[-0.13, 51.52], [-0.12, 51.52]] }),
  });
  return response.status;
}

const portOf = (url: string) => Number(new URL(url).port);

/** What the process printed once the banner is in it: the banner comes before the info file, but reaches the file through this process's pipe, which a busy machine can hold back. */
async function outputWithBanner(outputFile: string): Promise<string> {
  return until(async () => {
    const output = await readFile(outputFile, 'utf8');
    return output.includes('Ctrl-C stops everything.') && output;
  }, 10_000, 100);
}

async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('the local platform process (npm start)', () => {
  it('prints its URLs, keys and a curl example with no log line among them, writes the info file, and stops cleanly on Ctrl-C', async () => {
    const running = await startLocalProcess();
    const banner = await outputWithBanner(running.outputFile);
    // Its log lines (seeding planned routes and loaded graphs) went to the log file the banner names.
    expect(banner.split('\n').filter((line) => line.trimStart().startsWith('{"'))).toEqual([]);
    expect(banner).toContain(`Log lines (JSON):          ${running.logFile}`);
    expect(await readFile(running.logFile, 'utf8')).toMatch(/^\{.*"message":"graph loaded"/m);
    expect(banner).toContain(`Walk-through key:          ${running.info.demo.walkthrough_api_key}  (enterprise plan, 120 a minute, 2,000 an hour, 10,000 a day; the README's and docs' examples)`);
    expect(banner).toContain(running.info.base_url);
    expect(banner).toContain(running.info.app_base_url);
    expect(banner).toContain(running.info.demo.api_key);
    expect(banner).toContain(running.info.demo.partner_api_key);
    expect(banner).toContain(`Playground key:            ${running.info.demo.playground_api_key}  (enterprise plan, 120 a minute, 3,000 an hour, 20,000 a day; the playground's own)`);
    expect(banner).toMatch(/curl -s -X POST http:\/\/127\.0\.0\.1:\d+\/directions\/v2\//);
    expect(running.info.demo.partner_source).toMatch(/^[a-z0-9_-]{2,32}$/);
    expect(await directionsStatus(running.info, running.info.demo.api_key)).not.toBe(401);
    expect(await directionsStatus(running.info, running.info.demo.partner_api_key)).not.toBe(401);
    expect(await directionsStatus(running.info, running.info.demo.playground_api_key)).not.toBe(401);

    expect(await running.stop('SIGINT')).toBe(0);
    expect(await readFile(running.outputFile, 'utf8')).toMatch(/Stopped\./);
    for (const url of [running.info.base_url, running.info.app_base_url, ...Object.values(running.info.services)]) {
      expect(await portIsFree(portOf(url)), url).toBe(true);
    }
  });

  it('keeps keys across restarts, reuses the demo keys, and --reset starts empty', async () => {
    const first = await startLocalProcess();
    const stateDir = first.info.state_dir;
    const created = await admin(stateDir, 'keys', 'create', '--name', 'Restart test', '--plan', 'enterprise', '--per-minute', '5', '--per-hour', '50', '--per-day', '500');
    const key = created.stdout.trim().split('\n').pop()!;
    expect(key).toMatch(/^spk_/);
    expect(await directionsStatus(first.info, key)).not.toBe(401);
    await first.stop();

    const second = await startLocalProcess({ stateDir });
    expect(await directionsStatus(second.info, key)).not.toBe(401);
    expect(second.info.demo).toEqual(first.info.demo);
    await second.stop();

    const third = await startLocalProcess({ stateDir, args: ['--reset'] });
    expect(await directionsStatus(third.info, key)).toBe(401);
    expect(third.info.demo.api_key).not.toBe(first.info.demo.api_key);
    expect(await directionsStatus(third.info, third.info.demo.api_key)).not.toBe(401);
    await third.stop();
  });

  /** Runs `npm start`'s entry with `env` until it exits; its status and everything it printed. */
  async function failedStart(env: Record<string, string>): Promise<{ code: unknown; output: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
      cwd: projectRoot,
      env: { ...process.env, SPOKE_STATE_DIR: await mkdtemp(join(tmpdir(), 'spoke-data-')), SPOKE_BASE_PORT: '0', SPOKE_APP_PORT: '0', SPOKE_DYNAMODB_PORT: '0', SPOKE_S3_PORT: '0', SPOKE_SQS_PORT: '0', SPOKE_IDP_PORT: '0', SPOKE_PLAYGROUND_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    return { code, output };
  }

  it('names SPOKE_DATA_PATH and the path tried when the data folder is missing, before starting anything', async () => {
    const missing = join(await mkdtemp(join(tmpdir(), 'spoke-data-')), 'no-such-folder');
    const { code, output } = await failedStart({ SPOKE_DATA_PATH: missing });
    expect(code).toBe(1);
    expect(output).toBe(
      `The local platform could not start. The data folder ${missing} does not exist.\n` +
        `That is where SPOKE_DATA_PATH points ("${missing}"). Point SPOKE_DATA_PATH at the folder with the input data (OSM extracts, boundaries, bike-share feeds, cycle parking; by default ../shared/data beside the checkout) and try again.\n`,
    );
  });

  it("names the input a city's graph lacks when the data folder holds the wrong files", async () => {
    const empty = await mkdtemp(join(tmpdir(), 'spoke-data-'));
    const { code, output } = await failedStart({ SPOKE_DATA_PATH: empty, SPOKE_CITIES: 'los-angeles', SPOKE_GRAPH_DIR: join(empty, 'graphs') });
    expect(code).toBe(1);
    expect(output).toContain(`The local platform could not start. los-angeles has no routing graph yet, and the data folder ${empty} lacks ${join(empty, 'osm')}/`);
    expect(output).toContain(`That is where SPOKE_DATA_PATH points ("${empty}")`);
    expect(output).not.toMatch(/\n\s+at /);
    expect(output).not.toContain('GraphUnavailableError');
  });

  it('names the setting to change when a port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
        cwd: projectRoot,
        env: { ...process.env, SPOKE_STATE_DIR: await mkdtemp(join(tmpdir(), 'spoke-port-')), SPOKE_BASE_PORT: String(port), SPOKE_APP_PORT: '0', SPOKE_DYNAMODB_PORT: '0', SPOKE_S3_PORT: '0', SPOKE_SQS_PORT: '0', SPOKE_IDP_PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain(`Port ${port} for the base API ({base_url}) is already in use`);
      expect(output).toContain('SPOKE_BASE_PORT');
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });
});

describe('the operator CLI', () => {
  it('creates, lists and revokes keys, never showing a hash', async () => {
    const running = await startLocalProcess({ env: { SPOKE_TEST_CLOCK: '1' } });
    try {
      const stateDir = running.info.state_dir;
      const created = await admin(stateDir, 'keys', 'create', '--name', 'Acme Maps', '--plan', 'partner', '--source', 'acme-maps', '--per-minute', '30', '--per-hour', '600', '--per-day', '6000');
      const key = created.stdout.trim().split('\n').pop()!;
      const keyId = key.split('_')[1]!;
      expect(await directionsStatus(running.info, key)).not.toBe(401);

      const listed = await admin(stateDir, 'keys', 'list');
      expect(listed.stdout).toMatch(new RegExp(`${keyId}\\s+active\\s+partner\\s+acme-maps`));
      expect(listed.stdout).not.toMatch(/[0-9a-f]{64}/);
      expect(listed.stdout).not.toContain(key);

      const revoked = await admin(stateDir, 'keys', 'revoke', keyId);
      expect(revoked.stdout).toContain(`Revoked ${keyId}`);
      // Refused once the platform's cached record of the key has aged out (API_KEY_RECORD_CACHE_MS).
      expect(await directionsStatus(running.info, key, API_KEY_RECORD_CACHE_MS / 1000)).toBe(401);
      expect((await admin(stateDir, 'keys', 'list')).stdout).toMatch(new RegExp(`${keyId}\\s+revoked`));

      await expect(admin(stateDir, 'keys', 'create', '--name', 'No source', '--plan', 'partner', '--per-minute', '1', '--per-hour', '1', '--per-day', '1')).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('source slug'),
      });
      await expect(admin(stateDir, 'keys', 'revoke', '0000000000000000')).rejects.toMatchObject({ code: 2 });
    } finally {
      await running.stop();
    }
  });
});
