/**
 * `npm run fuzz -- [--runs N] [--seed S]`: the fuzz test of every endpoint
 * (test/http/fuzz.platform.test.ts) with N generated requests per endpoint (the suite runs 150) and
 * seed S (the suite's is 22), against a local platform started for the run. A failure prints the
 * smallest request fast-check could shrink it to, and the seed and path that replay it.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../../lib/project-root.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2000' }, seed: { type: 'string', default: '22' } } });
const whole = (name: string, text: string): string => {
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    console.error(`--${name} must be a whole number of at least 1`);
    process.exit(2);
  }
  return text;
};
const runs = whole('runs', values.runs);
const seed = whole('seed', values.seed);

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'platform', 'test/http/fuzz.platform.test.ts'], {
  cwd: projectRoot,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed },
});
process.exit(run.status ?? 1);
