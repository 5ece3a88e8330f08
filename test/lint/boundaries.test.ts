import { randomUUID } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';

/**
 * The layering rules as `npm run lint` applies them (ESLint with the project's config, then
 * `tsc --noEmit` over tsconfig.json), on probe files written into the folders the rules govern and
 * removed afterwards: each probe breaks one rule, the way the code once could, and must be
 * reported; probes that keep the rules must not be.
 */

const written: string[] = [];
afterEach(() => {
  for (const file of written.splice(0)) rmSync(file, { force: true });
});

/** Writes a probe module into `folder` (relative to the project root); removed after the test. */
function probe(folder: string, text: string): string {
  const file = join(projectRoot, folder, `lint-probe-${randomUUID().slice(0, 8)}.ts`);
  writeFileSync(file, text);
  written.push(file);
  return file;
}

const eslint = new ESLint({ cwd: projectRoot });

/** ESLint's errors on a file: `rule: message`. */
async function lintErrors(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([file]);
  return result!.messages.filter((message) => message.severity === 2).map((message) => `${message.ruleId}: ${message.message}`);
}

const boundary = (text: string) => expect.stringMatching(new RegExp(`^spoke/import-boundaries: .*${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));

describe('core/ imports no AWS package', () => {
  it.each([
    ['@aws-lambda-powertools/logger', "import { Logger } from '@aws-lambda-powertools/logger';\nexport const probe = Logger;\n"],
    ['aws-jwt-verify', "import { JwtVerifier } from 'aws-jwt-verify';\nexport const probe = JwtVerifier;\n"],
    ['aws-jwt-verify/error', "import { NonRetryableFetchError } from 'aws-jwt-verify/error';\nexport const probe = NonRetryableFetchError;\n"],
    ['@aws-sdk/client-s3', "import { S3Client } from '@aws-sdk/client-s3';\nexport const probe = S3Client;\n"],
    ['@middy/core', "import middy from '@middy/core';\nexport const probe = middy;\n"],
    ['aws-lambda', "import type { Context } from 'aws-lambda';\nexport type Probe = Context;\n"],
    ['aws-cdk-lib', "import { Stack } from 'aws-cdk-lib';\nexport const probe = Stack;\n"],
  ])('reports %s', async (name, text) => {
    expect(await lintErrors(probe('core/routing', text))).toEqual([boundary(`core/ may not import the package ${name}`)]);
  });

  it('lets core/ import core/ and Node', async () => {
    const file = probe('core/routing', "import { createHash } from 'node:crypto';\nimport { MinHeap } from './search/heap.ts';\nexport const probe = [createHash, MinHeap];\n");
    expect(await lintErrors(file)).toEqual([]);
  });
});

describe('the builder reaches nothing of functions/, and the Lambda runtime it uses nothing either', () => {
  it('reports graph-builder/ importing the router', async () => {
    const file = probe('graph-builder', "import { cityGraph } from '../functions/graphs/graph-store.ts';\nexport const probe = cityGraph;\n");
    expect(await lintErrors(file)).toEqual([boundary('graph-builder/ may not import from functions/graphs/graph-store.ts')]);
  });

  it('breaks the chain graph-builder → platform → functions/graphs at its second link', async () => {
    const runtime = probe('platform', "import { cityGraph } from '../functions/graphs/graph-store.ts';\nexport const probe = cityGraph;\n");
    const builder = probe('graph-builder', `import { probe as runtime } from '../platform/${relative(join(projectRoot, 'platform'), runtime)}';\nexport const probe = runtime;\n`);
    expect(await lintErrors(builder)).toEqual([]);
    expect(await lintErrors(runtime)).toEqual([boundary('platform/ may not import from functions/graphs/graph-store.ts')]);
  });

  it('reports platform/ importing the HTTP layer of functions/', async () => {
    expect(await lintErrors(probe('platform', "export * from '../functions/http/errors.ts';\n"))).toEqual([boundary('platform/ may not import from functions/http/errors.ts')]);
  });
});

describe('the CDK constructs import nothing of functions/; the local platform may', () => {
  it('reports lib/ importing functions/', async () => {
    const file = probe('lib', "import { systemsOf } from '../functions/bikeshare/systems.ts';\nexport const probe = systemsOf;\n");
    expect(await lintErrors(file)).toEqual([boundary('lib/ may not import from functions/bikeshare/systems.ts')]);
  });

  it('lets lib/local/ import functions/', async () => {
    const file = probe('lib/local', "import { systemsOf } from '../../functions/bikeshare/systems.ts';\nexport const probe = systemsOf;\n");
    expect(await lintErrors(file)).toEqual([]);
  });
});

describe('dynamic imports are checked', () => {
  it('checks a template-string import() like a string', async () => {
    const file = probe('core', 'export const probe = () => import(`../functions/graphs/graph-store.ts`);\n');
    expect(await lintErrors(file)).toEqual([boundary('core/ may not import from functions/graphs/graph-store.ts')]);
  });

  it('checks require() like import()', async () => {
    const file = probe('graph-builder', "declare const require: (name: string) => unknown;\nexport const probe = () => require('../functions/oauth/grants.ts');\n");
    expect(await lintErrors(file)).toEqual([boundary('graph-builder/ may not import from functions/oauth/grants.ts')]);
  });

  it.each([
    ['a template with a substitution', "const name = 'graph-store';\nexport const probe = () => import(`../functions/graphs/${name}.ts`);\n"],
    ['a variable', "const name = '../functions/graphs/graph-store.ts';\nexport const probe = () => import(name);\n"],
    ['a computed require()', "declare const require: (name: string) => unknown;\nconst name = 'aws-jwt-verify';\nexport const probe = () => require(name);\n"],
  ])('refuses an import of %s outright', async (_kind, text) => {
    expect(await lintErrors(probe('core', text))).toEqual([boundary('is not a plain string')]);
  });

  it('allows it only in the files dynamicImports lists, each of which exists', async () => {
    const { dynamicImports } = (await import(pathToFileURL(join(projectRoot, 'eslint.config.js')).href)) as { dynamicImports: Record<string, string> };
    expect(Object.keys(dynamicImports).length).toBeGreaterThan(0);
    for (const file of Object.keys(dynamicImports)) expect(existsSync(join(projectRoot, file)), file).toBe(true);
  });
});

describe('no circle of imports between the folders of functions/ or the parts of the engine', () => {
  it.each([
    ['auth', '../http/errors.ts', 'auth → http → auth'],
    ['auth', '../oauth/access-tokens.ts', 'auth → oauth → auth'],
    ['auth', '../riders/identity-provider-client.ts', 'auth → riders → auth'],
    ['riders', '../oauth/pkce.ts', 'riders → oauth → riders'],
  ])('reports functions/%s importing %s', async (folder, target, expected) => {
    const file = probe(`functions/${folder}`, `export * from '${target}';\n`);
    expect(await lintErrors(file)).toEqual([boundary(expected)]);
  });

  it('reports a circle inside the engine', async () => {
    const file = probe('core/routing/costing', "export type * from '../search/search.ts';\n");
    expect(await lintErrors(file)).toEqual([boundary('closes a circle of folders: costing → search → costing')]);
  });

  it('reports two files that import each other, even for types alone', async () => {
    const first = probe('core/routing/search', 'export const probe = 1;\n');
    const second = probe('core/routing/search', `import type { probe } from './${basename(first)}';\nexport type Probe = typeof probe;\n`);
    writeFileSync(first, `import type { Probe } from './${basename(second)}';\nexport const probe: Probe | number = 1;\n`);
    expect(await lintErrors(first)).toEqual([boundary(`closes a circle of files: core/routing/search/${basename(first)} → core/routing/search/${basename(second)} → core/routing/search/${basename(first)}`)]);
  });

  it('lets folders import each other one way', async () => {
    const file = probe('functions/oauth', "export * from '../riders/email-sign-in.ts';\nexport * from '../auth/credentials.ts';\n");
    expect(await lintErrors(file)).toEqual([]);
  });
});

describe('functions stay short', () => {
  const functionOf = (lines: number) => `export function probe(): number {\n  let total = 0;\n${'  total += 1;\n'.repeat(lines - 4)}  return total;\n}\n`;

  it.each(['core', 'functions/graphs', 'graph-builder/stages'])('reports a function over 150 lines in %s/', async (folder) => {
    expect(await lintErrors(probe(folder, functionOf(151)))).toEqual([expect.stringMatching(/^max-lines-per-function: .*\(151\)\. Maximum allowed is 150/)]);
  });

  it('lets a function of 150 lines be', async () => {
    expect(await lintErrors(probe('functions/graphs', functionOf(150)))).toEqual([]);
  });
});

describe('tsc --noEmit checks every source folder', () => {
  const project = () => {
    const config = ts.readConfigFile(join(projectRoot, 'tsconfig.json'), ts.sys.readFile);
    return ts.parseJsonConfigFileContent(config.config, ts.sys, projectRoot);
  };

  it('type-checks a core/ module nothing imports', () => {
    const file = probe('core', "export const probe: number = 'not a number';\n");
    const parsed = project();
    expect(parsed.fileNames).toContain(file);
    const program = ts.createProgram([file], parsed.options);
    expect(ts.getPreEmitDiagnostics(program).map((diagnostic) => diagnostic.code)).toContain(2322);
  });

  it('includes every TypeScript file of the project', () => {
    const included = new Set(project().fileNames);
    const sources = ts.sys.readDirectory(projectRoot, ['.ts'], ['node_modules', 'cdk.out', '.local-data'], undefined);
    const left = sources.filter((file) => !included.has(file));
    expect(left).toEqual([]);
  });
});
