import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { createApiKey, type NewApiKey } from '../../functions/auth/api-keys.ts';
import { functionEnvironment } from '../../lib/local/provision.ts';

/** Helpers for tests that talk to the running local platform over HTTP. */

export const platform = inject('platform');

const run = promisify(execFile);

/** The operator CLI (`npm run admin -- …`) against the running platform, as an operator runs it. */
export async function runAdmin(args: readonly string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], {
      cwd: projectRoot,
      env: { ...process.env, SPOKE_STATE_DIR: platform.state_dir, ...env },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

let awsEnvironmentSet = false;
/** Points this test worker's AWS SDK clients at the platform's dynalite, s3rver and SQS endpoint. */
export function useLocalAws(): void {
  if (awsEnvironmentSet) return;
  Object.assign(process.env, functionEnvironment(platform.services));
  awsEnvironmentSet = true;
}

export async function newKey(input: NewApiKey = { name: 'test key', plan: 'free' }): Promise<string> {
  useLocalAws();
  return (await createApiKey(input)).key;
}

export interface CallOptions {
  method?: string;
  key?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  api?: 'base' | 'app';
}

export async function call(path: string, options: CallOptions = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.apikey = options.key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  const base = options.api === 'app' ? platform.app_base_url : platform.base_url;
  const response = await fetch(`${base}${path}`, { method: options.method ?? (body ? 'POST' : 'GET'), headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A London pair for directions requests that should pass validation. */
export const londonPair = [
  [-0.1337, 51.5246],
  [-0.1246, 51.5219],
];

/** Waits until at least `seconds` remain in the current window, so a test never straddles two windows. */
export async function awayFromWindowEdge(windowSeconds: number, seconds: number): Promise<void> {
  const intoWindow = (Date.now() / 1000) % windowSeconds;
  if (windowSeconds - intoWindow < seconds) await sleep((windowSeconds - intoWindow + 0.2) * 1000);
}
