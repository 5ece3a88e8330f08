import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LonLat } from '../../core/geo.ts';
import { projectRoot } from '../../lib/project-root.ts';

/**
 * The coordinates the README and docs/ give as examples, in each way they write one: JSON pairs
 * (`[-0.1328, 51.5212]`), command-line pairs (`-0.1337,51.5246`), query strings
 * (`latitude=51.5246&longitude=-0.1337`) and the CLI's `--latitude … --longitude …`.
 * docs/graph-report.md is left out: the graph builder writes it, and its places are where the
 * builder kept or dropped parts of the data, not examples.
 */

export interface DocCoordinate {
  /** `README.md:68`. */
  where: string;
  point: LonLat;
}

const FORMS: [RegExp, (match: RegExpExecArray) => LonLat][] = [
  [/\[\s*(-?\d{1,3}\.\d+)\s*,\s*(-?\d{1,3}\.\d+)\s*\]/g, (match) => [Number(match[1]), Number(match[2])]],
  [/(?<![\d.[])(-?\d{1,3}\.\d{2,}),(-?\d{1,3}\.\d{2,})(?!\d)/g, (match) => [Number(match[1]), Number(match[2])]],
  [/latitude=(-?\d+\.\d+)&longitude=(-?\d+\.\d+)/g, (match) => [Number(match[2]), Number(match[1])]],
  [/--latitude (-?\d+\.\d+) --longitude (-?\d+\.\d+)/g, (match) => [Number(match[2]), Number(match[1])]],
];

const GENERATED = new Set(['docs/graph-report.md']);

export function docCoordinates(): DocCoordinate[] {
  const files = ['README.md', ...readdirSync(join(projectRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)].filter((file) => !GENERATED.has(file));
  const found: DocCoordinate[] = [];
  for (const file of files) {
    readFileSync(join(projectRoot, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const [form, pointOf] of FORMS) {
          for (const match of line.matchAll(form)) found.push({ where: `${file}:${index + 1}`, point: pointOf(match as RegExpExecArray) });
        }
      });
  }
  return found;
}
