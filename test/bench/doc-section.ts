import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../../lib/project-root.ts';

/**
 * Replaces the section of docs/benchmarks.md between `<!-- <name>:start -->` and
 * `<!-- <name>:end -->` with `lines`, or appends it when the file has no such section yet.
 */
export async function replaceDocSection(name: string, lines: readonly string[]): Promise<void> {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const path = join(projectRoot, 'docs', 'benchmarks.md');
  const existing = await readFile(path, 'utf8');
  const from = existing.indexOf(start);
  const to = existing.indexOf(end);
  const section = `${start}\n${lines.join('\n').trimEnd()}\n${end}`;
  const updated = from >= 0 && to > from ? `${existing.slice(0, from)}${section}${existing.slice(to + end.length)}` : `${existing.trimEnd()}\n\n${section}\n`;
  await writeFile(path, updated);
  console.log(`Wrote the ${name} section of ${path}`);
}

/** A run saved earlier to compare with (test/bench/<file>), or null when there is none. */
export async function savedRun<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(join(projectRoot, 'test', 'bench', file), 'utf8')) as T;
  } catch {
    return null;
  }
}

/**
 * The day a measurement is recorded under, for the documents: the one place the benchmarks read
 * the calendar (what they measure runs on fixed departures and monotonic timers).
 */
export function measuredOn(): string {
  return new Date().toISOString().slice(0, 10);
}
