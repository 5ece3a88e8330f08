/**
 * How long a heavy route request within the compute budget delays a simple one sent while it
 * runs, through the local platform's gateway (every handler in one Node process, as `npm start`
 * runs it). Per round: the heavy request (explain-supersafe with `avoid_hills` through 25 New
 * York coordinates, each 0.3 to 1.2 km from the last: the heaviest planning the budget bench
 * measures) is sent, and a simple London route `--gap` ms later; the delay is the simple route's
 * time less its median time alone, measured in the same run between the rounds.
 *
 * Usage: npx tsx test/bench/concurrent-delay.ts [--rounds 15] [--gap 100]
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApiKey } from '../../functions/auth/api-keys.ts';
import { functionEnvironment } from '../../lib/local/provision.ts';
import { startLocalProcess } from '../support/local-process.ts';
import { realGraph } from '../routing/real-graphs.ts';
import { seededRequests } from './budget.ts';
import { percentile } from './measure.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, gap: { type: 'string', default: '100' } } });
const rounds = Number(values.rounds);
const gap = Number(values.gap);

const SIMPLE = { coordinates: [[-0.1337, 51.5246], [-0.1246, 51.5219]], departure_time: '2026-06-15T08:30' };
const heavyBodies = seededRequests(realGraph('new-york'), 'errands', rounds + 2, 341).map((coordinates) => ({ coordinates, avoid_hills: true, departure_time: '2026-06-15T08:30' }));

const running = await startLocalProcess();
try {
  Object.assign(process.env, functionEnvironment(running.info.services));
  const { key } = await createApiKey({ name: 'concurrent delay', plan: 'enterprise', limits: { perMinute: 100_000, perHour: 1_000_000, perDay: 10_000_000 } });
  const post = async (path: string, body: unknown) => {
    const started = performance.now();
    const response = await fetch(`${running.info.base_url}${path}`, { method: 'POST', headers: { apikey: key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, milliseconds: performance.now() - started, code: response.status === 200 ? null : (JSON.parse(text) as { code?: string }).code };
  };
  // Warm both cities' graphs and the code.
  for (const body of heavyBodies.slice(0, 2)) await post('/explain-supersafe/', body);
  for (let index = 0; index < 5; index++) await post('/directions/v2/', SIMPLE);

  const alone: number[] = [];
  const heavy: number[] = [];
  const together: number[] = [];
  const refused: string[] = [];
  for (const body of heavyBodies.slice(2)) {
    for (let index = 0; index < 3; index++) alone.push((await post('/directions/v2/', SIMPLE)).milliseconds);
    const heavyAnswer = post('/explain-supersafe/', body);
    await sleep(gap);
    const simple = await post('/directions/v2/', SIMPLE);
    const answered = await heavyAnswer;
    if (answered.status !== 200) refused.push(`${answered.status} ${answered.code}`);
    heavy.push(answered.milliseconds);
    together.push(simple.milliseconds);
  }
  const aloneMedian = percentile(alone, 50);
  const delays = together.map((milliseconds) => milliseconds - aloneMedian);
  console.log(`${cpus().length} cores, Node ${process.versions.node}, load average ${loadavg().map((value) => value.toFixed(2)).join(' / ')}; ${rounds} rounds, simple route sent ${gap} ms after the heavy one`);
  console.log(`simple route alone: p50 ${aloneMedian.toFixed(1)} ms, p95 ${percentile(alone, 95).toFixed(1)} ms`);
  console.log(`heavy request: p50 ${percentile(heavy, 50).toFixed(1)} ms, p95 ${percentile(heavy, 95).toFixed(1)} ms, max ${Math.max(...heavy).toFixed(1)} ms${refused.length ? `; refused: ${refused.join(', ')}` : ''}`);
  console.log(`simple route sent meanwhile: p50 ${percentile(together, 50).toFixed(1)} ms, p95 ${percentile(together, 95).toFixed(1)} ms`);
  console.log(`delay: p50 ${percentile(delays, 50).toFixed(1)} ms, p95 ${percentile(delays, 95).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms`);
} finally {
  await running.stop();
  console.log(`platform log: ${running.logFile}`);
}
