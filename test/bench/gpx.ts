import './scratch.ts';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { cities, type CityId } from '../../core/cities/index.ts';
import { gpxDocument, type GpxDocument } from '../../core/routing/export/gpx.ts';
import { hillContext, planHillRoute, seededHillPairs, type HillRoute } from '../support/hill-routes.ts';
import { measuredOn, replaceDocSection } from './doc-section.ts';
import { percentile } from './measure.ts';

/**
 * What a GPX answer costs beside the route it writes (docs/benchmarks.md, "GPX export"): on
 * seeded pairs 1 to 5 km apart in San Francisco and New York (both ends measured by the elevation
 * model, joined by a supersafe route; test/support/hill-routes.ts), each route planned as the
 * directions endpoint plans it, then written as GPX (core/routing/export/gpx.ts) with its heights.
 * Planning and writing alternate pair by pair in one process, warm; times are wall per operation
 * and process CPU time over all of them.
 * Usage: npx tsx test/bench/gpx.ts [--pairs 100] [--rounds 3] [--no-docs]
 */

const print = (line = ''): boolean => process.stdout.write(`${line}\n`);
const DEPARTURE = new Date('2026-06-15T17:30:00Z');
const CITIES: CityId[] = ['sf-bay', 'new-york'];

interface CityRun {
  city: CityId;
  pairs: number;
  planMs: number[];
  writeMs: number[];
  planCpuMs: number;
  writeCpuMs: number;
  bytes: number[];
  points: number[];
}

function documentOf(route: HillRoute): GpxDocument {
  const coordinates = route.body.geometry.coordinates;
  return {
    language: 'en',
    departure: DEPARTURE,
    link: 'http://localhost:3000/directions/v2/',
    waypoints: [{ name: 'Start', location: coordinates[0]! }, { name: 'Destination', location: coordinates.at(-1)! }],
    routes: [{ kind: 'supersafe', route: route.body, elevationProfile: route.profile ?? undefined }],
  };
}

const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

function cityRun(city: CityId, pairCount: number, rounds: number): CityRun {
  const context = hillContext(city);
  const pairs = seededHillPairs(context, pairCount, 2026);
  const run: CityRun = { city, pairs: pairs.length, planMs: [], writeMs: [], planCpuMs: 0, writeCpuMs: 0, bytes: [], points: [] };
  // One warm-up round of both, then the timed rounds.
  for (const pair of pairs) gpxDocument(documentOf(planHillRoute(context, pair, { supersafe: true, avoidHills: false })!));
  for (let round = 0; round < rounds; round++) {
    for (const pair of pairs) {
      let cpu = process.cpuUsage();
      let started = performance.now();
      const route = planHillRoute(context, pair, { supersafe: true, avoidHills: false })!;
      run.planMs.push(performance.now() - started);
      run.planCpuMs += cpuMs(process.cpuUsage(cpu));
      const input = documentOf(route);
      cpu = process.cpuUsage();
      started = performance.now();
      const gpx = gpxDocument(input);
      run.writeMs.push(performance.now() - started);
      run.writeCpuMs += cpuMs(process.cpuUsage(cpu));
      if (round === 0) {
        run.bytes.push(Buffer.byteLength(gpx));
        run.points.push(route.body.geometry.coordinates.length);
      }
    }
  }
  return run;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pairs: { type: 'string', default: '100' }, rounds: { type: 'string', default: '3' }, 'no-docs': { type: 'boolean', default: false } } });
  const loadAtStart = loadavg()[0]!;
  const runs = CITIES.map((city) => cityRun(city, Number(values.pairs), Number(values.rounds)));
  const loadAtEnd = loadavg()[0]!;
  const busy = Math.max(loadAtStart, loadAtEnd) > cpus().length;
  const lines = [
    '## GPX export',
    '',
    `Measured by \`npx tsx test/bench/gpx.ts\` on ${measuredOn()}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; 1-minute load average ${loadAtStart.toFixed(1)} at the start and ${loadAtEnd.toFixed(1)} at the end${busy ? ' (other work shared the cores, so wall times are inflated; the CPU times are the figures to read)' : ''}.`,
    '',
    `Seeded pairs 1 to 5 km apart (seed 2026; both ends measured by the elevation model, joined by a supersafe route), each planned as the directions endpoint plans it (snap, search, guidance, elevation profile) and then written as GPX 1.1 with heights (\`core/routing/export/gpx.ts\`), alternating pair by pair in one warm process, ${values.rounds} rounds after a warm-up. Writing is milliseconds per operation (wall) and CPU time per route over all rounds; size is the document's bytes.`,
    '',
    '| City | Pairs | Track points p50 / p95 | GPX bytes p50 / p95 | Plan ms p50 / p95 | Write ms p50 / p95 | CPU ms per route, plan / write | Write over plan (CPU) |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map((run) => {
      const routes = run.planMs.length;
      return `| ${cities[run.city].name} | ${run.pairs} | ${percentile(run.points, 50)} / ${percentile(run.points, 95)} | ${percentile(run.bytes, 50).toLocaleString('en')} / ${percentile(run.bytes, 95).toLocaleString('en')} | ${percentile(run.planMs, 50).toFixed(2)} / ${percentile(run.planMs, 95).toFixed(2)} | ${percentile(run.writeMs, 50).toFixed(3)} / ${percentile(run.writeMs, 95).toFixed(3)} | ${(run.planCpuMs / routes).toFixed(2)} / ${(run.writeCpuMs / routes).toFixed(3)} | ${((run.writeCpuMs / run.planCpuMs) * 100).toFixed(1)}% |`;
    }),
  ];
  for (const line of lines) print(line);
  if (!values['no-docs']) await replaceDocSection('gpx', lines);
}

await main();
