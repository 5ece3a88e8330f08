import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';

/**
 * The README's "Where things live" table answers each question with files that exist: a move
 * that leaves the table behind fails here, not in a newcomer's first hour.
 */

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('### Where things live'), readme.indexOf('## Dependency notes'));
const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| To find') && !line.startsWith('|---'));

describe("the README's table of where things live", () => {
  it('answers the questions a newcomer asks first, each with one file', () => {
    const question = (words: string) => rows.find((row) => row.startsWith(`| ${words}`));
    for (const words of ['how supersafe is costed', 'where a usage plan is defined', 'how a report changes a route']) {
      const row = question(words);
      expect(row, words).toBeDefined();
      // The first path of the answer is the one file that answers it.
      expect(row!.split('|')[2]!.match(/`([^`]+)`/)?.[1], words).toMatch(/^[a-z-]+\/[\w/.-]+\.ts$/);
    }
  });

  it('names only files that exist', () => {
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      const answer = row.split('|')[2]!;
      const [first, ...rest] = [...answer.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
      expect(existsSync(join(projectRoot, first!)), first).toBe(true);
      // Names after the first may be beside it (`weights.ts`) or from the root.
      for (const name of rest) expect(existsSync(join(projectRoot, name)) || existsSync(join(projectRoot, first!, '..', name)), name).toBe(true);
    }
  });
});
