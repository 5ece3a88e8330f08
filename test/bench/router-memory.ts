/**
 * The router's memory at city scale, in a process limited like a Lambda function: a child process
 * loads a graph file the way functions/graphs/graph-store.ts does (the file's bytes, then
 * `loadGraphBytes`: the typed-array views, the router's derived arrays and the landmark tables),
 * routes once on each cycling metric (on the cost tables read from the file), and reports its load time
 * and its peak resident memory. Each run is made under a memory limit of a Lambda size: a cgroup
 * (v1, /sys/fs/cgroup/memory; needs root) when the machine allows one, where exceeding the limit
 * kills the process as Lambda does; without one the peak is only compared with the size. A run of
 * several copies holds each loaded copy while the next loads: two are a version swap, five the
 * four cities of a routing function and the swap of one of them.
 *
 * Usage: npx tsx test/bench/router-memory.ts <graph file> [--runs 1769:1,3008:2,7168:5] [--write-docs]
 */
import './scratch.ts';
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { replaceDocSection } from './doc-section.ts';
import { loadMeasured } from './measure.ts';

const CGROUP_ROOT = '/sys/fs/cgroup/memory';

interface ChildReport {
  readonly fileBytes: number;
  readonly edges: number;
  readonly loadMilliseconds: number;
  readonly firstRouteMilliseconds: number;
  readonly derivedBytes: number;
  /** Resident memory once loaded and routed, and the process's high-water mark, bytes. */
  readonly rss: number;
  readonly peakRss: number;
}

/** In the child: load `copies` copies, each kept while the next loads, and report. */
async function child(path: string, copies: number): Promise<void> {
  await new Promise<void>((go) => process.once('message', () => go()));
  const held: ReturnType<typeof loadMeasured>[] = [];
  for (let copy = 0; copy < copies; copy++) held.push(loadMeasured('new-york', new Uint8Array(await readFile(path))));
  const loaded = held.at(-1)!;
  const report: ChildReport = {
    fileBytes: loaded.fileBytes,
    edges: loaded.loaded.network.graph.edgeCount,
    loadMilliseconds: loaded.loadMilliseconds,
    firstRouteMilliseconds: loaded.firstRouteMilliseconds,
    derivedBytes: loaded.derivedBytes,
    rss: process.memoryUsage().rss,
    peakRss: process.resourceUsage().maxRSS * 1024,
  };
  process.send!(report, () => process.exit(0));
}

type Outcome = { readonly fits: true; readonly report: ChildReport } | { readonly fits: false; readonly signal: string | null; readonly code: number | null };

/** A memory cgroup of `megabytes`, or null where the machine offers none. */
function memoryCgroup(megabytes: number): { path: string; remove(): void } | null {
  if (!existsSync(join(CGROUP_ROOT, 'cgroup.procs'))) return null;
  const path = join(CGROUP_ROOT, `spoke-router-memory-${process.pid}-${megabytes}`);
  try {
    mkdirSync(path);
    writeFileSync(join(path, 'memory.limit_in_bytes'), String(megabytes * 2 ** 20));
    // Without swap accounting the limit still holds: the machine has no swap to spill to.
    return { path, remove: () => rmdirSync(path) };
  } catch {
    return null;
  }
}

async function measure(path: string, megabytes: number, copies: number): Promise<Outcome & { readonly limited: boolean }> {
  const cgroup = memoryCgroup(megabytes);
  const process_ = fork(process.argv[1]!, ['--child', path, '--copies', String(copies)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    if (cgroup) writeFileSync(join(cgroup.path, 'cgroup.procs'), String(process_.pid));
    const outcome = await new Promise<Outcome>((resolve) => {
      let report: ChildReport | null = null;
      process_.on('message', (message) => (report = message as ChildReport));
      process_.on('exit', (code, signal) => resolve(report && code === 0 ? { fits: true, report } : { fits: false, code, signal }));
      process_.send('go');
    });
    return { ...outcome, limited: cgroup !== null };
  } finally {
    cgroup?.remove();
  }
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20).toLocaleString('en');

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      child: { type: 'string' }, copies: { type: 'string', default: '1' },
      runs: { type: 'string', default: '1769:1,3008:1,1769:2,3008:2,7168:5' }, 'write-docs': { type: 'boolean', default: false },
    },
  });
  if (values.child) return child(values.child, Number(values.copies));
  const path = positionals[0];
  if (!path) throw new Error('Usage: npx tsx test/bench/router-memory.ts <graph file> [--runs 1769:1,3008:2] [--write-docs]');
  const runs = values.runs.split(',').map((run) => run.split(':').map(Number) as [number, number]);
  const load = loadavg()[0]!;
  const rows: string[] = [];
  let limited = false;
  let reference: ChildReport | null = null;
  const holding = (copies: number) => (copies === 1 ? 'one city' : copies === 2 ? 'one city and its swap (two copies)' : `${copies} copies (${copies - 1} cities and a swap)`);
  for (const [size, copies] of runs) {
    const outcome = await measure(path, size, copies);
    limited ||= outcome.limited;
    if (outcome.fits) {
      reference ??= outcome.report;
      rows.push(`| ${size.toLocaleString('en')} MB | ${holding(copies)} | fits | ${mb(outcome.report.peakRss)} MB | ${outcome.report.loadMilliseconds.toFixed(0)} ms |`);
    } else {
      rows.push(`| ${size.toLocaleString('en')} MB | ${holding(copies)} | killed (${outcome.signal ?? `exit ${outcome.code}`}) | over ${size.toLocaleString('en')} MB | – |`);
    }
    console.log(rows.at(-1));
  }
  const fileBytes = (await stat(path)).size;
  const lines = [
    '## Router memory at city scale',
    '',
    `Measured by \`npx tsx test/bench/router-memory.ts <graph> --write-docs\` on ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; load average at the start ${load.toFixed(1)}. The graph: the 10 x 10 tiled city of "Graph build at city scale", a ${mb(fileBytes)} MB file${reference ? ` with ${reference.edges.toLocaleString('en')} directed edges` : ''}. Each run is a fresh process that reads the file and loads it as graph-store.ts does, then routes once per cycling metric (several copies: each held while the next loads; the load time is the last copy's); ${limited ? 'each ran in a memory cgroup of the Lambda size (the kernel kills a process over its limit, as Lambda does)' : 'no memory cgroup was available, so each peak is only compared with the Lambda size'}. Peak RSS is the process's high-water mark, Node included.`,
    '',
    '| Lambda memory | Holding | Result | Peak RSS | Load (bytes to routable) |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...(reference ? [`Per directed edge: the file's ${(reference.fileBytes / reference.edges).toFixed(0)} B plus ${(reference.derivedBytes / reference.edges).toFixed(0)} B the router derives. The first route after a load took ${reference.firstRouteMilliseconds.toFixed(0)} ms (code still cold; the cost tables are read from the file).`, ''] : []),
  ];
  console.log(lines.join('\n'));
  if (values['write-docs']) await replaceDocSection('router-memory', lines);
}

await main();
