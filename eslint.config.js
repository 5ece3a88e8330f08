import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import * as espree from 'espree';
import tseslint from 'typescript-eslint';
import ts from 'typescript';

const projectRoot = dirname(fileURLToPath(import.meta.url));

/** Packages only Lambda code or the CDK app may use: the AWS SDK, Powertools, token verification, middy, Lambda's types, the CDK. */
const AWS_PACKAGES = [/^@aws-sdk\//, /^@aws-lambda-powertools\//, /^aws-jwt-verify(\/|$)/, /^@middy\//, /^aws-lambda$/, /^aws-cdk-lib(\/|$)/, /^constructs$/];
const CDK_PACKAGES = [/^aws-cdk-lib(\/|$)/, /^constructs$/];

/**
 * Which way imports may point (README, "Folders and which way imports point"). Each folder names
 * the folders (or sub-folders) it may import from, and the packages it must never import; a file
 * follows the most specific entry its path starts with. `core/` is shared by everything and
 * depends on nothing of ours and on no AWS package: the routing engine runs from a graph file
 * alone. `platform/` is the Lambda runtime every function runs on (clients, resources, logging,
 * metrics); it imports nothing of ours but `core/`. Lambda code never reaches into the CDK app, the
 * tools or the builder. The builder runs as a Lambda too (the nightly rebuild), so it may use the
 * Lambda runtime, and nothing of the router, the OAuth server or the rest of `functions/`. The CDK
 * constructs in `lib/` name handler modules by path and never import `functions/`: what the stack
 * and the functions share (settings' names, plans, resources) is in `platform/`. The local
 * platform (`lib/local/`) and the entry points run handlers and domain code, so they may.
 */
export const importBoundaries = {
  core: { may: ['core'], forbiddenPackages: AWS_PACKAGES },
  platform: { may: ['core', 'platform'], forbiddenPackages: CDK_PACKAGES },
  functions: { may: ['core', 'platform', 'functions'], forbiddenPackages: CDK_PACKAGES },
  'graph-builder': { may: ['core', 'platform', 'graph-builder'], forbiddenPackages: CDK_PACKAGES },
  lib: { may: ['core', 'platform', 'graph-builder', 'lib'], forbiddenPackages: [] },
  'lib/local': { may: ['core', 'platform', 'functions', 'graph-builder', 'lib'], forbiddenPackages: [] },
  bin: { may: ['core', 'platform', 'functions', 'graph-builder', 'lib', 'bin'], forbiddenPackages: [] },
};

/**
 * Folders whose sub-folders may import each other only one way: no circle of imports, type-only
 * ones included, between the endpoint folders of `functions/` or the engine's parts in
 * `core/routing/` (files directly in the folder count as one more part).
 */
export const acyclicFolders = ['functions', 'core/routing'];
// Files never import each other in a circle anywhere in the project (`fileGraph` below), type-only imports included.

/**
 * The only files that may `import()` or `require()` a module whose name is not a plain string,
 * which no rule can check, and why.
 */
export const dynamicImports = {
  'lib/local/launch.ts': 'loads the handler modules the endpoint and worker tables name (platform/endpoints.ts, workers.ts), as the CDK stack bundles them',
  'lib/local/city-router-thread.ts': "loads the cities' routing function the endpoint table names (platform/endpoints.ts cityRouterEntry), or a test's stand-in, in its worker thread",
};

const ownPath = (path) => relative(projectRoot, path).split(sep).join('/');
const within = (path, folder) => path === folder || path.startsWith(`${folder}/`);

/** The boundary a file follows: the entry of the longest folder its path starts with. */
function boundaryOf(file) {
  const folder = Object.keys(importBoundaries).filter((key) => within(file, key)).sort((a, b) => b.length - a.length)[0];
  return folder ? { folder, ...importBoundaries[folder] } : null;
}

/** The module a call names, when it is a plain string or a template without substitutions; else null. */
function literalSource(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
}

/** Every TypeScript file under a folder, with the modules it imports (parsed once per version of the file). */
const parsedImports = new Map();
function sourceFiles(folder) {
  const files = [];
  for (const entry of readdirSync(join(projectRoot, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}
function importsOf(file) {
  const absolute = join(projectRoot, file);
  const version = statSync(absolute).mtimeMs;
  const cached = parsedImports.get(file);
  if (cached?.version === version) return cached.imports;
  const imports = ts.preProcessFile(readFileSync(absolute, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
  parsedImports.set(file, { version, imports });
  return imports;
}

/** The part of `root` a path belongs to: its first sub-folder, or the root itself for files directly in it. */
const partOf = (root, path) => {
  const rest = path.slice(root.length + 1).split('/');
  return rest.length > 1 ? rest[0] : '.';
};

/** Which parts of `root` import which, from the files as they are on disk. */
function partGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const from = partOf(root, file);
    for (const source of importsOf(file)) {
      if (!source.startsWith('.')) continue;
      const target = ownPath(resolve(projectRoot, dirname(file), source));
      if (!within(target, root) || partOf(root, target) === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from).add(partOf(root, target));
    }
  }
  return graph;
}

/** The parts along an import path from `from` to `to`, or null when there is none. */
function importPath(graph, from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const part = queue.shift();
    if (part === to) {
      const path = [];
      for (let step = to; step !== null; step = previous.get(step)) path.unshift(step);
      return path;
    }
    for (const next of graph.get(part) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, part);
        queue.push(next);
      }
    }
  }
  return null;
}

/** The project's own files that import each other (every folder of `importBoundaries`), from the files on disk. */
function fileGraph() {
  const roots = [...new Set(Object.keys(importBoundaries).map((folder) => folder.split('/')[0]))];
  const graph = new Map();
  for (const file of roots.flatMap((root) => sourceFiles(root))) {
    const targets = new Set();
    for (const source of importsOf(file)) {
      if (source.startsWith('.')) targets.add(ownPath(resolve(projectRoot, dirname(file), source)));
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The rule behind `importBoundaries`, `acyclicFolders` and `dynamicImports`: resolves each
 * import, export-from, `import()` and `require()` and checks where it lands.
 */
const boundaryRule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      folder: '{{from}}/ may not import from {{to}} (see importBoundaries in eslint.config.js)',
      package: '{{from}}/ may not import the package {{name}}',
      dynamic: 'The module this import() or require() loads is not a plain string, so where it lands cannot be checked: name it literally, or list the file in dynamicImports (eslint.config.js)',
      cycle: '{{root}}/{{from}}/ importing {{root}}/{{to}}/ closes a circle of folders: {{circle}} (see acyclicFolders in eslint.config.js)',
      fileCycle: 'Importing {{to}} closes a circle of files: {{circle}}. Move what both need into a module of its own',
    },
  },
  create(context) {
    const file = ownPath(context.filename);
    const boundary = boundaryOf(file);
    if (!boundary) return {};
    const acyclicRoot = acyclicFolders.filter((root) => file.startsWith(`${root}/`)).sort((a, b) => b.length - a.length)[0];
    let graph = null;
    let files = null;
    // Type-only imports count too: a circle of files is a circle of concerns, whatever is imported.
    const checkFileCycle = (node, target) => {
      files ??= fileGraph();
      const back = importPath(files, target, file);
      if (back) context.report({ node, messageId: 'fileCycle', data: { to: target, circle: [file, ...back].join(' → ') } });
    };
    const checkCycle = (node, target) => {
      if (!acyclicRoot || !within(target, acyclicRoot)) return;
      const from = partOf(acyclicRoot, file);
      const to = partOf(acyclicRoot, target);
      if (from === to) return;
      graph ??= partGraph(acyclicRoot);
      const back = importPath(graph, to, from);
      if (back) context.report({ node, messageId: 'cycle', data: { root: acyclicRoot, from, to, circle: [from, ...back].join(' → ') } });
    };
    const check = (node, source) => {
      if (!source.startsWith('.')) {
        if (boundary.forbiddenPackages.some((pattern) => pattern.test(source))) {
          context.report({ node, messageId: 'package', data: { from: boundary.folder, name: source } });
        }
        return;
      }
      const target = ownPath(resolve(dirname(context.filename), source));
      if (!boundary.may.some((allowed) => within(target, allowed))) {
        context.report({ node, messageId: 'folder', data: { from: boundary.folder, to: target } });
        return;
      }
      checkCycle(node, target);
      checkFileCycle(node, target);
    };
    const checkDeclaration = (node) => {
      if (typeof node.source?.value === 'string') check(node.source, node.source.value);
    };
    const checkDynamic = (node, argument) => {
      const source = literalSource(argument);
      if (source !== null) check(argument, source);
      else if (!(file in dynamicImports)) context.report({ node, messageId: 'dynamic' });
    };
    return {
      ImportDeclaration: checkDeclaration,
      ExportNamedDeclaration: checkDeclaration,
      ExportAllDeclaration: checkDeclaration,
      ImportExpression: (node) => checkDynamic(node, node.source),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') checkDynamic(node, node.arguments[0]);
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '.local-data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { spoke: { rules: { 'import-boundaries': boundaryRule } } },
    rules: {
      'spoke/import-boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Functions stay short enough to read whole (the longest, the router's search, is about 120 lines).
    files: ['core/**/*.ts', 'platform/**/*.ts', 'functions/**/*.ts', 'graph-builder/**/*.ts', 'lib/**/*.ts', 'bin/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150 }] },
  },
  {
    // Tests read JSON bodies of every shape.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['bin/**', 'test/bench/**', 'lib/local/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Runs before anything else, on whatever Node is installed: it must parse on the oldest.
    files: ['bin/node-version.cjs'],
    languageOptions: {
      // ESLint's own parser: typescript-eslint's would accept any syntax whatever ecmaVersion says.
      parser: espree,
      ecmaVersion: 5,
      sourceType: 'script',
      globals: Object.fromEntries(['require', 'module', '__dirname', 'process', 'console'].map((name) => [name, 'readonly'])),
    },
    rules: { '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/consistent-type-imports': 'off', 'no-var': 'off' },
  },
  {
    // The map playground's page: plain browser modules, served as they are (docs/playground.md).
    files: ['lib/local/playground/web/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        ['window', 'document', 'location', 'history', 'navigator', 'fetch', 'Headers', 'URL', 'URLSearchParams', 'FormData', 'Node', 'localStorage', 'sessionStorage',
          'crypto', 'TextEncoder', 'TextDecoder', 'atob', 'btoa', 'Blob', 'performance', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval',
          'requestAnimationFrame', 'cancelAnimationFrame', 'speechSynthesis', 'SpeechSynthesisUtterance', 'Intl'].map((name) => [name, 'readonly']),
      ),
    },
  },
);
