/** Module hooks of register.mjs: each .ts module through esbuild's transform, as the bundler sees it. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, 'utf8'), { loader: 'ts', format: 'esm', target: 'node22', sourcemap: 'inline', sourcefile: path });
  return { format: 'module', source: code, shortCircuit: true };
}
