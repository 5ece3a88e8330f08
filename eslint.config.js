import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import * as espree from 'espree';
import tseslint from 'typescript-eslint';

const projectRoot = dirname(fileURLToPath(import.meta.url));

/**
 * Which way imports may point (README, "Architecture"). Each top-level folder names the folders
 * (or sub-folders) it may import from, and the packages it must never import. `core/` is shared by
 * everything and depends on nothing of ours; Lambda code never reaches into the CDK app, the
 * tools or the builder; the builder runs as a Lambda too (the nightly rebuild), so it may use the
 * Lambda runtime in `functions/platform/`, and nothing else of `functions/`.
 */
export const importBoundaries = {
  core: { may: ['core'], forbiddenPackages: [/^@aws-sdk\//, /^aws-cdk-lib/, /^constructs$/, /^@middy\//, /^aws-lambda$/] },
  functions: { may: ['core', 'functions'], forbiddenPackages: [/^aws-cdk-lib/, /^constructs$/] },
  'graph-builder': { may: ['core', 'graph-builder', 'functions/platform'], forbiddenPackages: [/^aws-cdk-lib/, /^constructs$/] },
  lib: { may: ['core', 'functions', 'graph-builder', 'lib'], forbiddenPackages: [] },
  bin: { may: ['core', 'functions', 'graph-builder', 'lib', 'bin'], forbiddenPackages: [] },
};

const ownFolder = (path) => relative(projectRoot, path).split(sep).join('/');

/** The rule behind `importBoundaries`: resolves each relative import and checks where it lands. */
const boundaryRule = {
  meta: { type: 'problem', schema: [], messages: { folder: '{{from}}/ may not import from {{to}} (see importBoundaries in eslint.config.js)', package: '{{from}}/ may not import the package {{name}}' } },
  create(context) {
    const file = ownFolder(context.filename);
    const layer = file.split('/')[0];
    const boundary = importBoundaries[layer];
    if (!boundary) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      if (!source.startsWith('.')) {
        if (boundary.forbiddenPackages.some((pattern) => pattern.test(source))) {
          context.report({ node: node.source, messageId: 'package', data: { from: layer, name: source } });
        }
        return;
      }
      const target = ownFolder(resolve(dirname(context.filename), source));
      if (!boundary.may.some((allowed) => target === allowed || target.startsWith(`${allowed}/`))) {
        context.report({ node: node.source, messageId: 'folder', data: { from: layer, to: target } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
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
    // Tests read JSON bodies of every shape.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['bin/**', 'graph-builder/cli.ts', 'test/bench/**', 'lib/local/**'],
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
          'crypto', 'TextEncoder', 'TextDecoder', 'atob', 'btoa', 'performance', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval',
          'requestAnimationFrame', 'cancelAnimationFrame', 'speechSynthesis', 'SpeechSynthesisUtterance', 'Intl'].map((name) => [name, 'readonly']),
      ),
    },
  },
);
