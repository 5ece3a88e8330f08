import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { authorizerEntry, endpoints, fallbackEntry, riderSignInTriggerEntry } from '../../platform/endpoints.ts';
import { workers } from '../../platform/workers.ts';

/** Names that say what each thing is (README, "Layout"), kept so as files come and go. */

/** TypeScript files under a folder of the project, relative to the root. */
function sources(folder: string): string[] {
  return readdirSync(join(projectRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => `${folder}/${file}`);
}

const exportsHandler = (file: string) => /^export (const|async function|function) handler\b/m.test(readFileSync(join(projectRoot, file), 'utf8'));

describe('names', () => {
  it('calls every module that exports a Lambda handler <what>-handler.ts, and only those', () => {
    const files = [...sources('platform'), ...sources('functions'), ...sources('graph-builder')];
    expect(files.filter((file) => exportsHandler(file) !== file.endsWith('-handler.ts'))).toEqual([]);
    const entries = [...Object.values(endpoints).map((endpoint) => endpoint.entry), ...workers.map((worker) => worker.entry), authorizerEntry, fallbackEntry, riderSignInTriggerEntry];
    expect(entries.filter((entry) => !entry.endsWith('-handler.ts') || !exportsHandler(entry))).toEqual([]);
  });

  it('keeps "platform" for platform/, the Lambda runtime every function uses', () => {
    const files = ['bin', 'lib', 'platform', 'functions', 'graph-builder', 'core'].flatMap(sources);
    // Below the top-level folder: no file or folder of the project borrows the package's name.
    expect(files.filter((file) => file.split('/').slice(1).some((part) => part.includes('platform')))).toEqual([]);
  });

  it('gives the builder no module named like one of its stages', () => {
    const stages = new Set(readdirSync(join(projectRoot, 'graph-builder/stages')));
    expect(readdirSync(join(projectRoot, 'graph-builder')).filter((file) => stages.has(file))).toEqual([]);
  });

  it("keeps a stage's own logic in a folder named for the stage, beside the stage's module", () => {
    const entries = readdirSync(join(projectRoot, 'graph-builder/stages'), { withFileTypes: true });
    const stageModules = new Set(entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => !stageModules.has(`${folder}.ts`))).toEqual([]);
  });
});
