import type { TestProject } from 'vitest/node';
import { startLocalProcess, type PlatformInfo } from './local-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    platform: PlatformInfo & { logFile: string };
  }
}

/**
 * One local platform for the whole `platform` project, started exactly as `npm start` starts it,
 * plus `SPOKE_TEST_CLOCK=1` so a test can run single requests later in time (test/oauth/oauth-support.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Accepted reports reach routers within seconds here rather than the deployed 20.
  const running = await startLocalProcess({ env: { SPOKE_TEST_CLOCK: '1', ROUTE_OVERLAY_REFRESH_SECONDS: '1' } });
  project.provide('platform', { ...running.info, logFile: running.logFile });
  return async () => {
    await running.stop();
  };
}
