/**
 * Spoke's router against Routino 3.3.3 (C, its own API through libroutino, bicycle profile) on the
 * same origin-destination pairs, run alternately in one process tree:
 * `BENCH_SECTIONS=routino npm run bench` (or
 * `node --import ./test/bench/as-deployed/register.mjs test/bench/routino.ts`; Routino from Debian:
 * `apt-get install routino libroutino-dev`): compiled the way
 * the Lambda bundle is, for tsx's development transform (every closure named as it is made) made
 * Spoke's queries a quarter slower than they run in Lambda.
 *
 * Per extract it builds Spoke's graph with the project's builder and Routino's database with
 * planetsplitter (both into a temp folder), draws BENCH_ROUTINO_PAIRS seeded pairs (default 500) of
 * coordinates near random points of the cycling network 1 to 6 km apart, and lays a seeded overlay
 * of accepted reports (closures, one-way, removed turns, hazards; some temporary) over Spoke's
 * graph. The extracts are New York, Midtown Manhattan and Central London alone, and London as the
 * platform builds it (all seven extracts of graph-builder/city-recipes.ts, which do not all touch each
 * other). test/bench/routino/routino-bench.c is compiled with cc at run time and keeps Routino's
 * database loaded; it times each query inside its process exactly as this script times Spoke's:
 * snap of both ends plus search, excluding process start and loading, with the snap apart.
 *
 * Spoke runs three ways: direct and supersafe as snap + search (what Routino's figure covers), and
 * the whole planner as the directions endpoint runs it (supersafe, its default: snap, search, path,
 * steps with voice and banner instructions, the route body and the disruptions near the route),
 * timed phase by phase.
 *
 * One warm-up round per system, then BENCH_ROUTINO_RUNS rounds (default 4); in every round each
 * extract runs every system one after another on all its pairs, in an order that changes from
 * round to round (`roundOrder`), so none always runs first on an extract, with caches cold from
 * the one before (that was Spoke direct, which ran measurably slower than supersafe on the same
 * small extract for it). The tables give the median over
 * the rounds of each round's p50 and p95, over the pairs that every system routed; every pair a
 * system could not snap or route is counted, never timed silently. BENCH_ROUTINO_EXTRACTS limits
 * the extracts (labels, comma-separated).
 */
import './scratch.ts';
import { spawn, spawnSync, execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { AvoidanceEffect, AvoidanceItem } from '../../core/report-avoidances.ts';
import { cities } from '../../core/cities/index.ts';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { EDGE_CYCLING } from '../../core/graph/flags.ts';
import { localMinutes } from '../../core/local-time.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import type { RouteOverlay } from '../../core/routing/costing/overlay.ts';
import type { LocatedReports } from '../../core/routing/avoidances/locate-avoidances.ts';
import { buildSteps } from '../../core/routing/guidance/steps.ts';
import { buildPath } from '../../core/routing/path/path.ts';
import { costingFor, disruptionsAlong, type RoutingContext } from '../../core/routing/planning/context.ts';
import { snapPoint } from '../../core/routing/planning/leg.ts';
import { routeBody, safetyBreakdown } from '../../core/routing/planning/route-body.ts';
import { departureIn } from '../../core/routing/time/departure.ts';
import { buildableCity, type BuildableCity } from '../../graph-builder/city-recipes.ts';
import { loadGraphBytes, type LoadedGraph } from '../../functions/graphs/graph-store.ts';
import { buildOverlay } from '../../functions/graphs/report-overlay.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, snapForCosting } from '../../core/routing/snap/snap.ts';
import { seededRandom } from '../routing/real-graphs.ts';
import { percentile } from './measure.ts';
import { buildInChild } from './build-in-child.ts';
import { replaceDocSection, measuredOn } from './doc-section.ts';

const PAIRS = Number(process.env.BENCH_ROUTINO_PAIRS ?? 500);
const EXTRACTS = process.env.BENCH_ROUTINO_EXTRACTS?.split(',').map((label) => label.trim());
/** Four rounds: each system first in one of them (`roundOrder`). */
const RUNS = Number(process.env.BENCH_ROUTINO_RUNS ?? 4);
const REPORTS = Number(process.env.BENCH_ROUTINO_REPORTS ?? 60);
const WRITE_DOCS = process.env.BENCH_WRITE_DOCS !== '0';
const ROUTINO_SHARE = '/usr/share/routino';
/** A weekday morning in June: time-limited restrictions and dated closures apply as they would. */
const DEPARTURE = '2026-06-15T08:30';
const DEPARTURE_MINUTE = localMinutes(2026, 6, 15, 8, 30);

interface Extract {
  label: string;
  city: BuildableCity;
  /** Seeds the extract's pairs and reports: its place in the full list, so a run limited to some extracts draws the same. */
  seed: number;
}

function extracts(): Extract[] {
  const newYork = buildableCity('new-york');
  const london = buildableCity('london');
  const all = [
    { label: 'New York', city: newYork },
    { label: 'Midtown Manhattan', city: { ...newYork, graph: { extracts: ['osm/nyc/donnawang47-Thesis/manhattan.osm.pbf'], nightlySources: [] } } },
    { label: 'Central London', city: { ...london, graph: { ...london.graph, extracts: ['osm/london/adnathanail-broute/central-london-latest.osm.pbf'], nightlySources: [] } } },
    { label: 'London', city: london },
  ];
  const seeded = all.map((extract, seed) => ({ ...extract, seed }));
  return EXTRACTS ? seeded.filter((extract) => EXTRACTS.includes(extract.label)) : seeded;
}

type Pair = [LonLat, LonLat];

/** Points within about 15 m of random cycling-network nodes, pairs 1 to 6 km apart, from a fixed seed. */
export function coordinatePairs(loaded: LoadedGraph, count: number, seed: number): Pair[] {
  const { network } = loaded;
  const graph = network.graph;
  const random = seededRandom(seed);
  const cyclingEdges: number[] = [];
  for (let edge = 0; edge < graph.edgeCount; edge++) if (graph.edgeFlags[edge]! & EDGE_CYCLING) cyclingEdges.push(edge);
  const point = (): LonLat => {
    const node = graph.edgeTail[cyclingEdges[Math.floor(random() * cyclingEdges.length)]!]!;
    return [network.nodeLon(node) + (random() - 0.5) * 0.0003, network.nodeLat(node) + (random() - 0.5) * 0.0002];
  };
  const pairs: Pair[] = [];
  for (let attempt = 0; pairs.length < count && attempt < count * 1000; attempt++) {
    const a = point();
    const b = point();
    const metres = haversineMetres(a[0], a[1], b[0], b[1]);
    if (metres >= 1000 && metres <= 6000) pairs.push([a, b]);
  }
  return pairs;
}

/**
 * Accepted reports on random cycling segments: the effects in turn (by default every one), a third
 * of them temporary (ending a week after the departure), located the way the router locates real ones.
 */
export function seededReports(
  loaded: LoadedGraph,
  count: number,
  seed: number,
  effects: readonly AvoidanceEffect[] = ['closed', 'one_way', 'no_manoeuvre', 'unsafe'],
): AvoidanceItem[] {
  const { network } = loaded;
  const graph = network.graph;
  const random = seededRandom(seed);
  const items: AvoidanceItem[] = [];
  for (let index = 0; index < count; index++) {
    let segment = Math.floor(random() * graph.segmentCount);
    for (let tries = 0; tries < 100; tries++) {
      const forward = graph.segmentForwardEdge[segment]!;
      const backward = graph.segmentBackwardEdge[segment]!;
      const edge = forward >= 0 ? forward : backward;
      if (edge >= 0 && graph.edgeFlags[edge]! & EDGE_CYCLING) break;
      segment = Math.floor(random() * graph.segmentCount);
    }
    const first = graph.segmentFirstPoint[segment]!;
    const last = graph.segmentFirstPoint[segment + 1]! - 1;
    const middle = Math.floor((first + last) / 2);
    const effect = effects[index % effects.length]!;
    items.push({
      city: loaded.city,
      report_id: `bench-${index}`,
      effect,
      issue_type: effect === 'unsafe' ? 'road_unsafe' : 'road_closed',
      issue_subtype: null,
      location: [network.pointLon(middle), network.pointLat(middle)],
      way_id: graph.segmentWayId[segment]!,
      road_name: null,
      against_geometry: effect === 'one_way' ? random() < 0.5 : undefined,
      until: index % 3 === 0 ? '2026-06-22T00:00:00Z' : null,
      accepted_at: '2026-06-01T00:00:00Z',
    });
  }
  return items;
}

/** The planner's phases, in order: what each took of a whole planned route. */
const PHASES = ['snap', 'search', 'path', 'steps', 'body', 'disruptions'] as const;
type Phase = (typeof PHASES)[number];

/** Outcome of one query: milliseconds (the snap's share apart), or why it failed. */
interface Outcome {
  milliseconds: number;
  snapMilliseconds: number;
  status: 'routed' | 'no-snap' | 'no-route';
  /** The planner's time per phase. */
  phases?: Record<Phase, number>;
}

/** Spoke's query as the directions endpoint runs it, without path and steps: costing, snap both ends, search. */
function spokeQuery(loaded: LoadedGraph, overlay: RouteOverlay, [from, to]: Pair, supersafe: boolean): Outcome {
  const started = performance.now();
  const costing = createCosting(loaded.network, { profile: 'cycling', supersafe, night: false, departureMinute: DEPARTURE_MINUTE }, overlay);
  const start = snapForCosting(costing, from, 'from');
  const end = snapForCosting(costing, to, 'to');
  const snapped = performance.now();
  let status: Outcome['status'] = 'no-snap';
  if (start && end) {
    const open = (edge: number) => costing.openAtDeparture(edge);
    const sources = positionsAt(loaded.network, open, start);
    const targets = positionsAt(loaded.network, open, end);
    const result = sources.length && targets.length ? findRoute(costing, loaded.workspace, sources, targets, end.location) : null;
    status = result ? 'routed' : 'no-route';
  }
  return { milliseconds: performance.now() - started, snapMilliseconds: snapped - started, status };
}

/**
 * The whole planner for one pair, as the directions endpoint plans a supersafe cycling route
 * (functions/directions/directions.ts: the route planner's `route`, that is planWaypoints, whose leg
 * is routeLeg, then the route body, the safety breakdown and the disruptions near the route),
 * with the same calls in the same order, each phase timed.
 */
function plannerQuery(context: RoutingContext, [from, to]: Pair): Outcome {
  const clock = [performance.now()];
  const tick = () => clock.push(performance.now());
  const costing = costingFor(context, { profile: 'cycling', supersafe: true, night: false });
  const network = context.loaded.network;
  const start = snapPoint(costing, from, 'from');
  const end = snapPoint(costing, to, 'to');
  tick();
  if (!start || !end) return { milliseconds: clock[1]! - clock[0]!, snapMilliseconds: clock[1]! - clock[0]!, status: 'no-snap' };
  const open = (edge: number) => costing.openAtDeparture(edge);
  const sources = positionsAt(network, open, start);
  const targets = positionsAt(network, open, end);
  const result = sources.length && targets.length ? findRoute(costing, context.loaded.workspace, sources, targets, end.location) : null;
  tick();
  if (!result) return { milliseconds: clock[2]! - clock[0]!, snapMilliseconds: clock[1]! - clock[0]!, status: 'no-route' };
  const path = buildPath(network, result, 'cycling');
  tick();
  const steps = buildSteps(network, (edge) => costing.usable(edge), path, { profile: 'cycling', language: 'en' });
  tick();
  const body = routeBody(steps, [path]);
  safetyBreakdown([path]);
  tick();
  disruptionsAlong(context, body.geometry.coordinates);
  tick();
  const phases = Object.fromEntries(PHASES.map((phase, index) => [phase, clock[index + 1]! - clock[index]!])) as Record<Phase, number>;
  return { milliseconds: clock.at(-1)! - clock[0]!, snapMilliseconds: phases.snap, status: 'routed', phases };
}

/** The compiled C timer with one extract's Routino database loaded. */
class RoutinoProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: Interface;
  private readonly pending: string[] = [];
  private waiting: ((line: string) => void) | null = null;

  constructor(binary: string, databaseDir: string, prefix: string, pairsFile: string) {
    this.child = spawn(binary, [databaseDir, prefix, join(ROUTINO_SHARE, 'profiles.xml'), join(ROUTINO_SHARE, 'translations.xml'), pairsFile]);
    this.child.stderr.on('data', (data: Buffer) => process.stderr.write(`routino: ${data}`));
    this.lines = createInterface({ input: this.child.stdout });
    this.lines.on('line', (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = null;
        resolve(line);
      } else this.pending.push(line);
    });
  }

  private next(): Promise<string> {
    const line = this.pending.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.child.once('exit', (code) => reject(new Error(`routino-bench exited with ${code}`)));
    });
  }

  async ready(): Promise<number> {
    const line = await this.next();
    if (!line.startsWith('ready ')) throw new Error(`routino-bench: ${line}`);
    return Number(line.slice('ready '.length));
  }

  async run(): Promise<Outcome[]> {
    this.child.stdin.write('run\n');
    const outcomes: Outcome[] = [];
    for (let line = await this.next(); line !== 'done'; line = await this.next()) {
      const [micro, status, snapMicro] = line.split(' ');
      outcomes.push({ milliseconds: Number(micro) / 1000, snapMilliseconds: Number(snapMicro) / 1000, status: status === '0' ? 'routed' : status === '1' ? 'no-snap' : 'no-route' });
    }
    return outcomes;
  }

  stop(): void {
    this.child.stdin.end();
  }
}

const SYSTEMS = ['direct', 'supersafe', 'planner', 'routino'] as const;
type System = (typeof SYSTEMS)[number];

/**
 * The systems' order in a round: forwards in even rounds and backwards in odd ones, each pair of
 * rounds starting one system later, so that no system always runs first on an extract or always
 * right after the same other one (a rotation alone keeps who follows whom).
 */
function roundOrder(round: number): System[] {
  const base = round % 2 === 0 ? [...SYSTEMS] : [...SYSTEMS].reverse();
  const shift = Math.floor(round / 2) % base.length;
  return [...base.slice(shift), ...base.slice(0, shift)];
}

interface Prepared {
  extract: Extract;
  loaded: LoadedGraph;
  overlay: RouteOverlay;
  context: RoutingContext;
  overlayEdges: number;
  reportsLocated: number;
  pairs: Pair[];
  routino: RoutinoProcess;
  routinoBuildSeconds: number;
  /** Per system, per round, per pair. */
  rounds: Record<System, Outcome[][]>;
}

/**
 * The extracts as planetsplitter can read them: its XML reader stops at the `<note>` and `<meta>`
 * elements Overpass writes at the top of an .osm file (London's extracts), so those files are given
 * to it as copies without them; PBF files as they are.
 */
async function routinoInputs(paths: readonly string[], workDir: string, prefix: string): Promise<string[]> {
  return Promise.all(paths.map(async (path, index) => {
    if (!path.endsWith('.osm')) return path;
    const copy = join(workDir, `${prefix}-input-${index}.osm`);
    await writeFile(copy, (await readFile(path, 'utf8')).replace(/^\s*<(note|meta)\b.*$/gm, ''));
    return copy;
  }));
}

async function prepare(extract: Extract, workDir: string, binary: string, index: number): Promise<Prepared> {
  const dataPath = sharedDataPath();
  const outDir = join(workDir, `spoke-${index}`);
  await mkdir(outDir);
  const built = await buildInChild(extract.city, { dataPath, outDir, now: new Date('2026-06-01T00:00:00Z') });
  const loaded = loadGraphBytes(extract.city.id, await readFile(built.graphPath));
  const cityOverlay = buildOverlay(loaded, seededReports(loaded, REPORTS, 4242 + extract.seed));
  const city = cities[extract.city.id];
  const reports: LocatedReports = { overlay: cityOverlay.overlay, avoidances: cityOverlay.avoidances };
  const context: RoutingContext = { city, loaded, departure: departureIn(city.timeZone, DEPARTURE, new Date(0)), reports };
  const overlayEdges = cityOverlay.avoidances.reduce((sum, avoidance) => sum + avoidance.edges.length, 0);
  const reportsLocated = cityOverlay.avoidances.filter((avoidance) => avoidance.edges.length > 0).length;
  const pairs = coordinatePairs(loaded, PAIRS, 2026 + extract.seed);
  const prefix = `extract${index}`;
  const routinoStarted = performance.now();
  const inputs = await routinoInputs(extract.city.graph.extracts.map((path) => join(dataPath, path)), workDir, prefix);
  execFileSync('planetsplitter', [`--dir=${workDir}`, `--prefix=${prefix}`, `--tagging=${join(ROUTINO_SHARE, 'tagging.xml')}`, ...inputs], { stdio: 'ignore' });
  const routinoBuildSeconds = (performance.now() - routinoStarted) / 1000;
  const pairsFile = join(workDir, `${prefix}-pairs.txt`);
  await writeFile(pairsFile, pairs.map(([a, b]) => `${a[0]} ${a[1]} ${b[0]} ${b[1]}`).join('\n') + '\n');
  const routino = new RoutinoProcess(binary, workDir, prefix, pairsFile);
  const count = await routino.ready();
  if (count !== pairs.length) throw new Error(`routino-bench read ${count} pairs of ${pairs.length}`);
  return { extract, loaded, overlay: cityOverlay.overlay, context, overlayEdges, reportsLocated, pairs, routino, routinoBuildSeconds, rounds: { direct: [], supersafe: [], planner: [], routino: [] } };
}

async function runSystem(prepared: Prepared, system: System): Promise<Outcome[]> {
  if (system === 'routino') return prepared.routino.run();
  if (system === 'planner') return prepared.pairs.map((pair) => plannerQuery(prepared.context, pair));
  return prepared.pairs.map((pair) => spokeQuery(prepared.loaded, prepared.overlay, pair, system === 'supersafe'));
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number): string => value.toFixed(2);

export async function routinoComparison(): Promise<string[]> {
  const lines: string[] = [];
  const emit = (line = '') => {
    lines.push(line);
    console.log(line);
  };
  const startLoad = loadavg()[0]!;
  const workDir = await mkdtemp(join(tmpdir(), 'spoke-routino-'));
  const binary = join(workDir, 'routino-bench');
  const source = fileURLToPath(new URL('./routino/routino-bench.c', import.meta.url));
  execFileSync('cc', ['-O2', '-o', binary, source, '-lroutino', '-lm'], { stdio: 'inherit' });
  const versionOutput = spawnSync('planetsplitter', ['--version'], { encoding: 'utf8' });
  const routinoVersion = `${versionOutput.stdout}${versionOutput.stderr}`.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').replace(/\s*\.\s*$/, '').trim();

  const prepared: Prepared[] = [];
  for (const [index, extract] of extracts().entries()) {
    prepared.push(await prepare(extract, workDir, binary, index));
    console.log(`prepared ${extract.label}`);
  }
  try {
    for (const item of prepared) for (const system of SYSTEMS) await runSystem(item, system); // warm-up
    for (let round = 0; round < RUNS; round++) {
      const order = roundOrder(round);
      for (const item of prepared) for (const system of order) item.rounds[system].push(await runSystem(item, system));
      console.log(`round ${round + 1} of ${RUNS} done`);
    }
  } finally {
    for (const item of prepared) item.routino.stop();
  }

  const endLoad = loadavg()[0]!;
  emit('## Against Routino (snap + search, and the whole planner)');
  emit();
  emit(`Measured by \`BENCH_SECTIONS=routino npm run bench\` (\`test/bench/routino.ts\`, its TypeScript compiled by esbuild as the Lambda bundle is, not by tsx: test/bench/as-deployed) on ${measuredOn()}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${routinoVersion} (Debian's \`routino\` and \`libroutino-dev\` packages: \`apt-get install routino libroutino-dev\`) through libroutino's C API (\`test/bench/routino/routino-bench.c\`, built with cc -O2), its bicycle profile, quickest route. Load average at the start: ${startLoad.toFixed(2)}, at the end: ${endLoad.toFixed(2)}.`);
  emit();
  emit(`Per extract ${PAIRS} seeded coordinate pairs 1 to 6 km apart (each end within about 15 m of a random node of the cycling network), the same for both routers. London is the graph the platform serves: its seven extracts (graph-builder/city-recipes.ts), which do not all touch (the City of London and Holborn among them is a network of its own), so pairs whose ends lie in two of them have no route in either router. A query is the snap of both ends plus the search, timed inside each process (Spoke: costing, \`snapForCosting\` at both ends, \`findRoute\`, as the directions endpoint runs them before building the path; Routino: \`Routino_FindWaypoint\` twice and \`Routino_CalculateRoute\`), never process start or loading. Spoke routes with an overlay of ${REPORTS} accepted reports per extract (closures, one-way, removed turns, hazards; a third temporary) and the graph's dated closures and time-limited restrictions at a Monday 08:30 departure. One warm-up round, then ${RUNS} rounds; each round runs, per extract, Spoke direct, Spoke supersafe, Spoke's whole planner and Routino one after the other, in an order that changes from round to round (forwards and backwards, starting one system later every second round), so that no system always meets an extract first with cold caches or always follows the same other. Figures are the median over the rounds of each round's percentile, over the pairs all of them routed; failures are counted per system (Spoke's include pairs that the overlay's closures cut off, which Routino, routing without the overlay, does not see). The target: Spoke's snap + search at most a third of Routino's at p50 and half at p95, and the whole planner at p50 no slower than Routino's bare route.`);
  emit();
  const table = (rows: string[][]) => {
    emit(`| ${rows[0]!.join(' | ')} |`);
    emit(`|${rows[0]!.map(() => '---').join('|')}|`);
    for (const row of rows.slice(1)) emit(`| ${row.join(' | ')} |`);
    emit();
  };
  const snapSearch = [['Extract', 'Pairs routed by all', 'Routino p50 / p95 ms', 'Spoke direct p50 / p95 ms', 'Spoke supersafe p50 / p95 ms', 'Spoke over Routino, p50 / p95 (direct; supersafe)', 'Not routed (Routino / direct / supersafe)']];
  const apart = [['Extract', 'Routino snap / search p50 ms', 'Spoke direct snap / search p50 ms', 'Spoke supersafe snap / search p50 ms', 'Spoke supersafe snap / search p95 ms']];
  const planner = [['Extract', 'Routino bare route p50 ms', 'Spoke whole planner p50 / p95 ms', ...PHASES.map((phase) => `${phase} p50 ms`)]];
  for (const item of prepared) {
    const everyRound = SYSTEMS.flatMap((system) => item.rounds[system]);
    const common = item.pairs.map((_, pair) => everyRound.every((outcomes) => outcomes[pair]!.status === 'routed'));
    /** The median over the rounds of the round's percentile `p` of what `measure` reads. */
    const figure = (system: System, p: number, measure: (outcome: Outcome) => number = (outcome) => outcome.milliseconds) =>
      median(item.rounds[system].map((outcomes) => percentile(outcomes.filter((_, pair) => common[pair]).map(measure), p)));
    const both = (system: System) => `${ms(figure(system, 50))} / ${ms(figure(system, 95))}`;
    const ratio = (system: System, p: number) => (figure(system, p) / figure('routino', p)).toFixed(2);
    const failures = (system: System) => {
      const last = item.rounds[system].at(-1)!;
      const noSnap = last.filter((outcome) => outcome.status === 'no-snap').length;
      const noRoute = last.filter((outcome) => outcome.status === 'no-route').length;
      return `${noSnap + noRoute}${noSnap ? ` (${noSnap} unsnapped)` : ''}`;
    };
    const snapAndSearch = (system: System, p: number) =>
      `${ms(figure(system, p, (outcome) => outcome.snapMilliseconds))} / ${ms(figure(system, p, (outcome) => outcome.milliseconds - outcome.snapMilliseconds))}`;
    const graph = item.loaded.network.graph;
    const label = item.extract.label;
    snapSearch.push([
      `${label} (${graph.nodeCount.toLocaleString('en')} nodes, ${graph.edgeCount.toLocaleString('en')} edges; ${item.reportsLocated} reports on ${item.overlayEdges} edges)`,
      `${common.filter(Boolean).length} of ${item.pairs.length}`,
      both('routino'),
      both('direct'),
      both('supersafe'),
      `${ratio('direct', 50)} / ${ratio('direct', 95)}; ${ratio('supersafe', 50)} / ${ratio('supersafe', 95)}`,
      `${failures('routino')} / ${failures('direct')} / ${failures('supersafe')}`,
    ]);
    apart.push([label, snapAndSearch('routino', 50), snapAndSearch('direct', 50), snapAndSearch('supersafe', 50), snapAndSearch('supersafe', 95)]);
    planner.push([label, ms(figure('routino', 50)), both('planner'), ...PHASES.map((phase) => ms(figure('planner', 50, (outcome) => outcome.phases![phase])))]);
  }
  table(snapSearch);
  emit('The same queries with the snap apart (the two `snapForCosting` calls; Routino\'s two `Routino_FindWaypoint` calls) from the search (Spoke: `positionsAt` and `findRoute`; Routino: `Routino_CalculateRoute`):');
  emit();
  table(apart);
  emit('The whole planner (supersafe, the directions default): the calls of `planDirections` in order, each phase timed; `body` is the route body and its safety breakdown, `disruptions` the closures, roadworks and reports near the route:');
  emit();
  table(planner);
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lines = await routinoComparison();
  if (WRITE_DOCS) await replaceDocSection('routino', lines);
}
