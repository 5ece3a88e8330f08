import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { docBlocks, runBlock, type BlockRun, type DocBlock } from '../support/doc-blocks.ts';
import { gpxSchemaProblems } from '../support/gpx-schema.ts';
import { startLocalProcess, type RunningLocalProcess } from '../support/local-process.ts';

/**
 * Every shell block of the README and docs/ runs as printed (test/support/doc-blocks.ts), and the
 * walk-throughs do what their text says. They run on a platform of their own, started as `npm
 * start` starts it, because the report walk-through closes a street that other tests route
 * through, and its signing-key rotation would change keys under the OAuth tests. Its routers pick
 * up accepted reports within a second instead of 20; the walk-throughs wait as their text says.
 *
 * The blocks read the URLs and the walk-through key from the platform's own `local-platform.json`
 * (`SPOKE_STATE_DIR`), as a reader's would from `.local-data`, and run in the order of this file
 * on the one platform: no answer along the way may be a 429, as none may be for a reader who
 * follows them all in one sitting.
 */

const run = promisify(execFile);
const blocks = docBlocks();
const runnable = blocks.filter((block) => block.notRun === null);
const named = (name: string): DocBlock => {
  const block = blocks.find((candidate) => candidate.walkthrough === name);
  if (!block) throw new Error(`No walk-through named ${name} in the README or docs`);
  return block;
};

let platform: RunningLocalProcess;
let readerState: string;
const env = () => ({ SPOKE_STATE_DIR: readerState });

beforeAll(async () => {
  platform = await startLocalProcess({ env: { SPOKE_CITIES: 'london,new-york,sf-bay', ROUTE_OVERLAY_REFRESH_SECONDS: '1' } });
  readerState = platform.info.state_dir;
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

async function admin(args: string[], stateDir = readerState): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], { cwd: projectRoot, env: { ...process.env, SPOKE_STATE_DIR: stateDir } });
  return stdout;
}

/** What every block printed, in the order they ran. */
const printed: string[] = [];

async function runs(block: DocBlock): Promise<BlockRun> {
  const result = await runBlock(block, env(), 150_000);
  printed.push(...result.outputs);
  expect(result.code, `${block.where} failed:\n${result.stderr}`).toBe(0);
  expect(result.outputs).toHaveLength(block.commands.length);
  return result;
}

/** The JSON lines a command printed (jq -c, or one curl answer). */
const jsonLines = (output: string): any[] =>
  output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

describe('the shell blocks of the README and docs', () => {
  it('say why, in the doc, wherever one is not run', () => {
    for (const block of blocks.filter((candidate) => candidate.notRun !== null)) expect(block.notRun!.length, block.where).toBeGreaterThan(10);
    expect(runnable.length).toBeGreaterThanOrEqual(5);
  });

  it.each(runnable.filter((block) => block.walkthrough === null).map((block) => [block.where, block] as const))('%s runs as printed', async (_, block) => {
    await runs(block);
  }, 180_000);
});

/** The answers `curl -i` printed, in order (a body ends without a newline): status, headers by lower-case name, and the JSON body. */
function answersOf(output: string): { status: number; headers: Map<string, string>; body: any }[] {
  return output
    .split(/(?=HTTP\/\d(?:\.\d)? \d{3} )/)
    .filter((part) => part.startsWith('HTTP/'))
    .map((part) => {
      const [head, body = ''] = part.split(/\r?\n\r?\n/, 2);
      const [statusLine, ...headerLines] = head!.split(/\r?\n/);
      const headers = new Map(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as const));
      return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
    });
}

describe('the README walk-throughs', () => {
  it('operator CLI: a partner key with its own limits, listed, then revoked', async () => {
    const { outputs } = await runs(named('keys'));
    expect(outputs[0]).toMatch(/active\s+partner\s+acme-maps\s+30\/min 600\/h 6000\/day/);
    expect(outputs[0]).toMatch(/^spk_\S+$/m);
    expect(outputs[1]).toContain('Acme Maps');
    expect(await admin(['keys', 'list'])).toMatch(/revoked\s+partner\s+acme-maps/);
  }, 180_000);

  it('OAuth apps: created with its secret shown once, redirects changed, secret rotated, revoked', async () => {
    const block = named('clients');
    const { outputs } = await runs(block);
    expect(outputs[0]).toMatch(/client_secret \(shown once; only its hash is stored\): spcs_/);
    expect(outputs[1]).toContain('Ride Planner');
    const listed = await admin(['clients', 'list']);
    expect(listed).toMatch(/revoked\s+confidential\s+\S+\s+Ride Planner/);
    expect(listed).toContain('https://rides.example/oauth/callback');
    // The rotation's new key is published beside the one that signs until it takes over.
    expect(outputs.at(-1)).toMatch(/current/);
  }, 180_000);

  it('hills: the preference takes the San Francisco route round Nob Hill, climbing far less for a short detour', async () => {
    const { outputs } = await runs(named('hills'));
    const [without] = jsonLines(outputs.at(-2)!);
    const [withHills] = jsonLines(outputs.at(-1)!);
    expect(without).toMatchObject({ avoid_hills: false, climb: expect.any(Number) });
    expect(withHills).toMatchObject({ avoid_hills: true, climb: expect.any(Number) });
    expect(withHills.climb).toBeLessThan(without.climb * 0.6);
    expect(withHills.distance).toBeLessThan(without.distance * 1.15);
  }, 180_000);

  it('multi-modal, why the safer route, events: each answers what the text says', async () => {
    const { outputs } = await runs(named('multimodal'));
    const [options] = jsonLines(outputs[2]!);
    expect(options.options[0]).toMatchObject({ type: 'personal', supersafe: true });
    expect(options.options.some((option: any) => option.type === 'docked')).toBe(true);
    const [explained] = jsonLines(outputs[3]!);
    expect(explained.explanation).toEqual(expect.any(String));
    expect(explained.explanation).not.toBe('');
    const [events] = jsonLines(outputs[4]!);
    expect(events.events.length).toBeGreaterThan(0);
  }, 180_000);

  it('GPX: the route as a GPX 1.1 file in Spanish, with heights along its track', async () => {
    const { outputs } = await runs(named('gpx'));
    expect(outputs[2]!.trim()).toBe('200 application/gpx+xml; charset=utf-8');
    const names = outputs[3]!.trim().split('\n');
    expect(names[0]).toMatch(/^<name>Ruta de Spoke de .+ a .+<\/name>$/);
    expect(names).toContain('<name>Ruta más segura</name>');
    // The first step walks the bike up from the park: "Camina con la bici hacia el norte …".
    expect(names.at(-1)).toMatch(/^<name>(Dirígete|Camina con la bici) .+<\/name>$/);
    const trackPoints = Number(outputs[4]);
    expect(trackPoints).toBeGreaterThan(10);
    expect(Number(outputs[5])).toBe(trackPoints);
    expect(await gpxSchemaProblems(await readFile('/tmp/brooklyn-heights.gpx', 'utf8'))).toEqual([]);
  }, 180_000);

  it('graded safety: fastest, balanced and quietest are three routes, as long and as busy as the text says', async () => {
    const { outputs } = await runs(named('graded-safety'));
    const [fastest, balanced, quietest] = outputs.slice(-3).map((output) => jsonLines(output)[0]);
    expect([fastest.safety, balanced.safety, quietest.safety]).toEqual([0, 0.25, 1]);
    expect([fastest, balanced, quietest].map((route: any) => Math.round(route.metres / 100) / 10)).toEqual([6.8, 7.1, 8.5]);
    expect([fastest, balanced, quietest].map((route: any) => Math.round(route.busy_shared / 100) / 10)).toEqual([1.8, 1.1, 0.5]);
  }, 180_000);

  it('bicycle types: the same trip for four bicycles, each timed at its own speeds; road and e-bike go round', async () => {
    const { outputs } = await runs(named('bicycle-types'));
    const [hybrid, road, cargo, ebike] = outputs.slice(-4).map((output) => jsonLines(output)[0]);
    expect([hybrid, road, cargo, ebike].map((route: any) => route.bicycle_type)).toEqual(['hybrid', 'road', 'cargo', 'ebike']);
    expect([hybrid, road, cargo, ebike].map((route: any) => Math.round(route.metres / 100) / 10)).toEqual([8.5, 9.1, 8.5, 9.1]);
    expect([hybrid, road, cargo, ebike].map((route: any) => Math.round(route.seconds / 60))).toEqual([34, 33, 49, 25]);
  }, 180_000);

  it.each([
    ['idempotent report', 200],
    ['idempotent ride', 201],
  ] as const)('%s: the same request twice under one Idempotency-Key answers the same id, the second marked as replayed', async (name, status) => {
    const { outputs } = await runs(named(name));
    const answers = answersOf(outputs.at(-1)!);
    expect(answers.map((answer) => answer.status)).toEqual([status, status]);
    expect(answers[1]!.body).toEqual(answers[0]!.body);
    expect(answers[0]!.headers.get('idempotent-replayed')).toBeUndefined();
    expect(answers[1]!.headers.get('idempotent-replayed')).toBe('true');
  }, 180_000);

  it('road report: in review within seconds, accepted, the route keeps off the closed track; resolved, it takes it again', async () => {
    const block = named('reports');
    const { outputs } = await runs(block);
    const step = (pattern: RegExp) => {
      const index = block.commands.findIndex((command) => pattern.test(command));
      expect(index, String(pattern)).toBeGreaterThanOrEqual(0);
      return outputs[index]!;
    };
    // 1. Byng Place is ridden on its cycle track.
    expect(jsonLines(step(/^curl .*directions.*\n.*jq -c/))).toEqual([{ name: 'Byng Place', safety_classification: 'cycleway' }]);
    // 3. Analysed: in review, with its summary.
    const [analysed] = jsonLines(step(/in_review/));
    expect(analysed).toMatchObject({ status: 'in_review', issue_type: 'road_closed', summary: expect.stringContaining('Byng Place') });
    // 4. Listed, then accepted.
    expect(step(/reports list/)).toContain(analysed.id);
    expect(step(/reports accept/)).toMatch(new RegExp(`${analysed.id}\\s+accepted`));
    // 5. The route keeps off the closed track: the carriageway beside it, and the closure listed.
    const avoided = jsonLines(step(/disruptions\[0\]/));
    expect(avoided.at(-2)).toEqual({ name: 'Byng Place', safety_classification: 'moderate' });
    expect(avoided.at(-1)).toMatchObject({ type: 'closure', source: 'report', road_name: 'Byng Place', id: `report-${analysed.id}`, active_at_departure: true });
    // 6. Resolved: the track again.
    expect(step(/reports resolve/)).toMatch(new RegExp(`${analysed.id}\\s+resolved`));
    expect(jsonLines(step(/select\(\.safety_classification == "cycleway"\)/)).at(-1)).toEqual({ name: 'Byng Place', safety_classification: 'cycleway' });
  }, 180_000);
});

describe('the walk-throughs followed in one sitting', () => {
  it('never meet a rate limit on the key they use', () => {
    expect(printed.length).toBeGreaterThan(20);
    for (const output of printed) {
      expect(output).not.toMatch(/Rate limit exceeded|^HTTP\/\S+ 429/m);
    }
  });
});
