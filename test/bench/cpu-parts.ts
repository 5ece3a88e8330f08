import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Profiler } from 'node:inspector';

/**
 * A V8 CPU profile of the local platform summed by where the code lives: which part of the
 * request path (gateway, authorizer, dispatch, HTTP chain, rate limiter, logging, metrics,
 * tracing, routing, the local DynamoDB) spent the samples. Used by test/bench/gateway-profile.ts
 * (Node's inspector in process) and test/bench/load.ts `--cpu-prof` (the platform process
 * started under `node --cpu-prof`).
 */

/** dynalite and the packages it stores and locks with: the local stand-in for DynamoDB. */
const DYNALITE_PACKAGES = ['dynalite', 'level', 'memory-level', 'classic-level', 'abstract-level', 'lock', 'async', 'big.js', 'lazy', 'once', 'buffer-crc32', 'level-transcoder', 'level-supports', 'module-error', 'maybe-combine-errors'];
/** The X-Ray SDK and the continuation-local storage it keeps its segments in (async hooks on every promise). */
const TRACING_PACKAGES = ['@aws-lambda-powertools/tracer', 'aws-xray-sdk-core', 'cls-hooked', 'async-hook-jl', 'emitter-listener', 'shimmer', 'stack-chain'];
const ROUTING_PACKAGES = ['osrm-text-instructions', 'luxon', 'suncalc', '@mapbox/polyline', 'kdbush', 'geokdbush', 'flatbush'];

function packagePart(name: string): string {
  if (DYNALITE_PACKAGES.includes(name)) return 'dynalite (local DynamoDB)';
  if (TRACING_PACKAGES.includes(name)) return 'tracing (X-Ray SDK, its async hooks)';
  if (name.startsWith('@aws-sdk/') || name.startsWith('@smithy/') || name.startsWith('@aws-crypto/') || name === 'fast-xml-parser' || name === 'tslib' || name === 'uuid') return 'AWS SDK clients';
  if (name === '@aws-lambda-powertools/metrics') return 'metrics (Powertools EMF, metrics log)';
  if (name.startsWith('@aws-lambda-powertools/') || name === '@aws/lambda-invoke-store') return 'logging (Powertools, InvokeStore)';
  if (name.startsWith('@middy/')) return 'middy chain';
  if (name === 'zod') return 'zod validation';
  if (ROUTING_PACKAGES.includes(name)) return 'routing and guidance';
  if (name === 'tsx' || name === 'esbuild' || name === 'get-tsconfig') return 'TypeScript loader (tsx)';
  return `other packages (${name})`;
}

/** The project's own code by folder. */
function projectPart(url: string): string | null {
  if (url.includes('/functions/graphs/') || url.includes('/functions/directions/directions.ts') || url.includes('/functions/directions/route-planner.ts') || url.includes('/core/')) return 'routing and guidance';
  if (url.includes('/functions/http/') || url.includes('/functions/directions/')) return 'HTTP chain (functions/http)';
  if (url.includes('/functions/auth/') || url.includes('/functions/authorizer/')) return 'authorizer (functions/auth)';
  if (url.includes('/functions/ratelimit/')) return 'rate limiter (functions/ratelimit)';
  if (url.includes('/functions/dispatch/') || url.includes('/lib/local/city-router')) return 'dispatch to the city\'s routing function';
  if (url.includes('/platform/metrics') || url.includes('/lib/local/metrics-log')) return 'metrics (Powertools EMF, metrics log)';
  if (url.includes('/platform/tracing')) return 'tracing (X-Ray SDK, its async hooks)';
  if (url.includes('/platform/logger') || url.includes('/platform/invocation-logging')) return 'logging (Powertools, InvokeStore)';
  if (url.includes('/platform/')) return 'Lambda runtime helpers (platform)';
  if (url.includes('/lib/local/dynamo-transactions')) return 'local DynamoDB endpoint proxy';
  if (url.includes('/lib/local/')) return 'local gateway (lib/local)';
  return null;
}

const NODE_IO = /^node:(internal\/)?(_?http|net|stream|internal\/streams|internal\/http|internal\/net|dns|tls|_stream|events|buffer|internal\/buffer|internal\/stream_base_commons|timers|internal\/timers|internal\/process\/task_queues|internal\/url|url)/;

/** Where a profiled function's code lives, as a part of the platform; null for a builtin without code of its own. */
export function partOf(url: string, functionName: string): string | null {
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 and native (unattributed)';
  // Node's async hooks run for installed hooks only: AsyncLocalStorage's (the runtime's InvokeStore, the test clock) and, where it is loaded, the X-Ray SDK's (cls-hooked).
  if (functionName === 'registerDestroyHook' || url === 'node:internal/async_hooks' || url === 'node:async_hooks') return 'async hooks (AsyncLocalStorage; the X-Ray SDK\'s too where it is loaded)';
  if (!url) return null;
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (packageName) return packagePart(packageName);
  const own = projectPart(url);
  if (own) return own;
  if (url.startsWith('node:internal/crypto') || url === 'node:crypto') return 'Node crypto';
  if (url.startsWith('node:internal/worker') || url === 'node:worker_threads') return 'dispatch to the city\'s routing function';
  if (NODE_IO.test(url)) return 'Node HTTP, sockets and event loop';
  if (url.startsWith('node:')) return 'Node other';
  return 'other (ours)';
}

/** A span of the profiled process's monotonic clock in microseconds (`process.hrtime` of any process on the machine). */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

/**
 * CPU milliseconds (self time) per part, of the samples within `window` (all by default); frames
 * without code of their own (builtins) count for their caller, except JSON.
 */
export function cpuByPart(profile: Profiler.Profile, window: ProfileWindow | null = null): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const partCache = new Map<number, string>();
  const resolve = (id: number): string => {
    const cached = partCache.get(id);
    if (cached) return cached;
    const node = nodes.get(id)!;
    const { url, functionName } = node.callFrame;
    let part = partOf(url, functionName);
    if (!part && !url && (functionName === 'stringify' || functionName === 'parse')) part = `JSON.${functionName}`;
    if (!part) part = parent.has(id) ? resolve(parent.get(id)!) : 'V8 and native (unattributed)';
    partCache.set(id, part);
    return part;
  };
  const totals = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let at = profile.startTime;
  for (let index = 0; index < samples.length; index++) {
    at += deltas[index] ?? 0;
    if (window && (at < window.fromUs || at > window.toUs)) continue;
    const part = resolve(samples[index]!);
    totals.set(part, (totals.get(part) ?? 0) + (deltas[index] ?? 0) / 1000);
  }
  return totals;
}

export interface PartCpu {
  part: string;
  msPerRequest: number;
}

/** The parts' CPU per request, busiest first, idle left out. */
export function cpuPerRequest(profile: Profiler.Profile, requests: number, window: ProfileWindow | null = null): PartCpu[] {
  return [...cpuByPart(profile, window).entries()]
    .filter(([part]) => part !== 'idle')
    .map(([part, ms]) => ({ part, msPerRequest: ms / Math.max(1, requests) }))
    .sort((a, b) => b.msPerRequest - a.msPerRequest);
}

/**
 * The main thread's profile of the one process `node --cpu-prof --cpu-prof-dir <folder>` ran:
 * Node names each `CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile`, and the main
 * thread is thread 0 (the others are tsx's module-loader thread and the like).
 */
export async function mainThreadProfile(folder: string): Promise<Profiler.Profile> {
  const files = (await readdir(folder)).filter((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  if (files.length !== 1) throw new Error(`Expected one main-thread CPU profile in ${folder} (a folder per run), found ${files.length}`);
  return JSON.parse(await readFile(join(folder, files[0]!), 'utf8')) as Profiler.Profile;
}
