import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';

/** bin/node-version.cjs: the check `npm start`, `npm test`, `npm run admin` and `npm run build-graphs` run first. */

const check = createRequire(import.meta.url)('../../bin/node-version.cjs') as {
  unsupportedNodeMessage(version: string, range: string): string | null;
  requiredRange(): string;
};
const run = promisify(execFile);
const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };

describe('the Node.js version check', () => {
  it('reads the range from package.json engines', () => {
    expect(check.requiredRange()).toBe(manifest.engines.node);
  });

  it.each(['v20.19.0', 'v20.19.5', 'v20.20.2', 'v21.0.0', 'v22.12.0', 'v24.1.0'])('accepts %s for >=20.19', (version) => {
    expect(check.unsupportedNodeMessage(version, '>=20.19')).toBeNull();
  });

  it.each(['v18.19.0', 'v20.18.3', 'v20.0.0', 'v16.20.2', 'v10.24.1', 'not a version'])('refuses %s, saying which Node is needed and which this is', (version) => {
    const message = check.unsupportedNodeMessage(version, '>=20.19');
    expect(message).toContain('Spoke needs Node.js 20.19.0 or later');
    expect(message).toContain('"engines": {"node": ">=20.19"}');
    expect(message).toContain(`this is Node.js ${version}.`);
  });

  it('compares every part of a full version', () => {
    expect(check.unsupportedNodeMessage('v22.11.9', '>=22.12.0')).toContain('22.12.0 or later');
    expect(check.unsupportedNodeMessage('v22.12.0', '>=22.12.0')).toBeNull();
    expect(check.unsupportedNodeMessage('v23.0.0', '>=22')).toBeNull();
  });

  it('refuses an engines range it cannot read rather than guessing', () => {
    expect(() => check.unsupportedNodeMessage('v20.19.0', '^20.19 || >=22')).toThrow(/engines\.node must read/);
  });

  it('runs first in npm start, npm test, npm run admin and npm run build-graphs', () => {
    for (const script of ['start', 'pretest', 'admin', 'build-graphs']) {
      expect(manifest.scripts[script], script).toMatch(/^node bin\/node-version\.cjs && /);
    }
  });

  it('exits quietly on this Node, and with the message and status 1 on an older one', async () => {
    expect(await run(process.execPath, ['bin/node-version.cjs'], { cwd: projectRoot })).toEqual({ stdout: '', stderr: '' });
    const folder = await mkdtemp(join(tmpdir(), 'node-version-'));
    const pretend = join(folder, 'node-18.cjs');
    await writeFile(pretend, "Object.defineProperty(process, 'version', { value: 'v18.19.0' });\n");
    const refused = await run(process.execPath, ['--require', pretend, 'bin/node-version.cjs'], { cwd: projectRoot }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain(`Spoke needs Node.js 20.19.0 or later (package.json "engines": {"node": "${manifest.engines.node}"}); this is Node.js v18.19.0.`);
  });
});
