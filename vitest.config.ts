import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` runs pure domain and infrastructure tests; `platform` runs against one
 * local platform (dynalite, s3rver, the gateway) that its global setup starts on free ports.
 */
export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    globalSetup: ['test/graphs-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/platform/**', 'node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'platform',
          include: ['test/platform/**/*.test.ts'],
          globalSetup: ['test/platform/global-setup.ts'],
          // Every answer the tests receive is checked against the API's OpenAPI document.
          setupFiles: ['test/platform/contract-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
