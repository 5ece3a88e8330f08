import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { tracingCanBeOn } from '../../platform/tracing.ts';

/**
 * Tracing (platform/tracing.ts) is loaded only where Powertools would trace: in Lambda. The X-Ray
 * SDK installs async hooks on every promise as it loads, so a process where tracing is off (the
 * local platform, tests) must not load it; a Lambda container must, with its clients captured.
 */

/** What a fresh process that loads the platform's invocation chain and AWS clients under `environment` sees. */
function loadInFreshProcess(environment: Record<string, string>): { xraySdkLoaded: boolean; chainLength: number } {
  const script = `
    const { createRequire } = await import('node:module');
    const { invocationSignals } = await import('./platform/invocation-logging.ts');
    const { dynamo } = await import('./platform/aws.ts');
    dynamo();
    const require = createRequire(import.meta.url);
    const xraySdkLoaded = Object.keys(require.cache).some((path) => path.includes('/aws-xray-sdk-core/'));
    console.log(JSON.stringify({ xraySdkLoaded, chainLength: invocationSignals().length }));
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: projectRoot,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, AWS_REGION: 'us-east-1', ...environment },
  });
  if (result.status !== 0) throw new Error(`the probe failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { xraySdkLoaded: boolean; chainLength: number };
}

describe('tracing', () => {
  it('follows Powertools\' rule for when it traces', () => {
    expect(tracingCanBeOn({})).toBe(false);
    expect(tracingCanBeOn({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' })).toBe(true);
    expect(tracingCanBeOn({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_TRACE_ENABLED: 'FALSE' })).toBe(false);
    expect(tracingCanBeOn({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_SAM_LOCAL: 'true' })).toBe(false);
    expect(tracingCanBeOn({ AWS_EXECUTION_ENV: 'AWS_Lambda_amplify-mock' })).toBe(false);
  });

  it('leaves the X-Ray SDK unloaded outside Lambda, so no async hook slows every promise', { timeout: 60_000 }, () => {
    const local = loadInFreshProcess({});
    expect(local.xraySdkLoaded).toBe(false);
    const lambda = loadInFreshProcess({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_LAMBDA_FUNCTION_NAME: 'probe' });
    expect(lambda.xraySdkLoaded).toBe(true);
    // The handler's subsegment is one more middleware in the chain where tracing is on.
    expect(lambda.chainLength).toBe(local.chainLength + 1);
  });
});
