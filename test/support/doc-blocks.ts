import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/project-root.ts';

/**
 * The shell blocks of the README and docs/, as a reader would copy them. Every ```sh block runs
 * as printed, unless the line before it says why not: `<!-- not run: <reason> -->` (something
 * this machine lacks, such as an AWS account). `<!-- walkthrough: <name> -->` names a block whose
 * claims a test checks beyond its running without error.
 */

export interface DocBlock {
  /** `README.md:123`, the line of the opening fence. */
  where: string;
  /** The walk-through's name, when the doc names it. */
  walkthrough: string | null;
  /** Why the suite does not run it, when the doc says. */
  notRun: string | null;
  /** Commands in order: continuation lines joined, comments and blank lines left out. */
  commands: string[];
  source: string;
}

const MARKER = /^<!--\s*(walkthrough|not run):\s*(.+?)\s*-->$/;

export function docBlocks(): DocBlock[] {
  const files = ['README.md', ...readdirSync(join(projectRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const blocks: DocBlock[] = [];
  for (const file of files) {
    const lines = readFileSync(join(projectRoot, file), 'utf8').split('\n');
    for (let index = 0; index < lines.length; index++) {
      if (lines[index]!.trim() !== '```sh') continue;
      const end = lines.findIndex((line, at) => at > index && line.trim() === '```');
      const body = lines.slice(index + 1, end);
      const marker = MARKER.exec(lines[index - 1]?.trim() ?? '');
      blocks.push({
        where: `${file}:${index + 1}`,
        walkthrough: marker?.[1] === 'walkthrough' ? marker[2]! : null,
        notRun: marker?.[1] === 'not run' ? marker[2]! : null,
        commands: commandsOf(body),
        source: body.join('\n'),
      });
      index = end;
    }
  }
  return blocks;
}

function commandsOf(lines: readonly string[]): string[] {
  const commands: string[] = [];
  let current = '';
  for (const line of lines) {
    if (!current && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    current += current ? `\n${line}` : line;
    if (!line.endsWith('\\')) {
      commands.push(current);
      current = '';
    }
  }
  if (current) commands.push(current);
  return commands;
}

export interface BlockRun {
  code: number | null;
  /** What each command printed on stdout, in order. */
  outputs: string[];
  stderr: string;
}

const SEPARATOR = '\u001e';

/**
 * Runs a block's commands in one bash (`set -euo pipefail`, from the project root), as a reader
 * pastes them, and keeps each command's output apart.
 */
export function runBlock(block: DocBlock, env: Record<string, string>, timeoutMs: number): Promise<BlockRun> {
  const script = ['set -euo pipefail', ...block.commands.flatMap((command) => [`printf '${SEPARATOR}\\n'`, command])].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, outputs: stdout.split(`${SEPARATOR}\n`).slice(1), stderr });
    });
  });
}
