import { readFile, writeFile } from 'node:fs/promises';

/**
 * Replaces the section `<!-- name:start -->` … `<!-- name:end -->` of a benchmarks document with
 * `lines`, or appends it when the document has none: each benchmark owns its section only.
 */
export async function replaceDocSection(path: string, name: string, lines: readonly string[]): Promise<void> {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const existing = await readFile(path, 'utf8');
  const from = existing.indexOf(start);
  const to = existing.indexOf(end);
  const section = `${start}\n${lines.join('\n').trimEnd()}\n${end}`;
  const updated = from >= 0 && to > from ? `${existing.slice(0, from)}${section}${existing.slice(to + end.length)}` : `${existing.trimEnd()}\n\n${section}\n`;
  await writeFile(path, updated);
  console.log(`\nWrote the ${name} section of ${path}`);
}
