import { defineConfig } from 'vitest/config';

/**
 * Tests live in folders by subject (test/routing, test/oauth, …); the file name says which
 * harness runs them. `unit` runs every `*.test.ts` on its own (pure domain code, infrastructure
 * templates, processes a test starts itself); `platform` runs the `*.platform.test.ts` files over
 * HTTP against one local platform (dynalite, s3rver, the gateway) that its global setup starts on
 * free ports.
 */
export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // The run's scratch folder first, so that it is removed last.
    globalSetup: ['test/support/scratch-setup.ts', 'test/support/graphs-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.platform.test.ts', 'node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'platform',
          include: ['test/**/*.platform.test.ts'],
          globalSetup: ['test/support/scratch-setup.ts', 'test/support/platform-global-setup.ts'],
          // Every answer the tests receive is checked against the API's OpenAPI document.
          setupFiles: ['test/support/contract-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
