import { LOCAL_LOG_FILE } from '../../lib/local/paths.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../../lib/project-root.ts';
import type { DemoCredentials } from '../../lib/local/seed.ts';

/** Runs `bin/local.ts` (what `npm start` runs) as a child process, as a user would. */

export interface PlatformInfo {
  base_url: string;
  app_base_url: string;
  consent_url: string;
  playground_url: string;
  services: { dynamodb: string; s3: string; sqs: string };
  identity_provider: { url: string; admin_secret: string };
  state_dir: string;
  demo: DemoCredentials;
  pid: number;
}

export interface RunningLocalProcess {
  info: PlatformInfo;
  /** The platform's log lines (JSON), which it writes to its state folder (lib/local/paths.ts `LOCAL_LOG_FILE`). */
  logFile: string;
  /** What the process printed for a person: the banner, its messages. */
  outputFile: string;
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const ALL_PORTS_FREE = {
  SPOKE_BASE_PORT: '0',
  SPOKE_APP_PORT: '0',
  SPOKE_DYNAMODB_PORT: '0',
  SPOKE_S3_PORT: '0',
  SPOKE_SQS_PORT: '0',
  SPOKE_IDP_PORT: '0',
  SPOKE_PLAYGROUND_PORT: '0',
};

export async function startLocalProcess(
  /** `nodeArgs`: Node's own options for the platform process (a benchmark's `--cpu-prof`). */
  options: { stateDir?: string; env?: Record<string, string>; args?: string[]; nodeArgs?: string[] } = {},
): Promise<RunningLocalProcess> {
  const stateDir = options.stateDir ?? (await mkdtemp(join(tmpdir(), 'spoke-test-')));
  const logFile = join(stateDir, LOCAL_LOG_FILE);
  const outputFile = join(stateDir, 'platform-output.log');
  const log = createWriteStream(outputFile, { flags: 'a' });
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'bin/local.ts', ...(options.args ?? [])], {
    cwd: projectRoot,
    env: { ...process.env, ...ALL_PORTS_FREE, SPOKE_STATE_DIR: stateDir, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const infoFile = join(stateDir, 'local-platform.json');
  const deadline = performance.now() + 90_000;
  let info: PlatformInfo | undefined;
  while (!info) {
    if (child.exitCode !== null) throw new Error(`The local platform exited early; see ${outputFile}:\n${await readFile(outputFile, 'utf8')}`);
    if (performance.now() > deadline) throw new Error(`The local platform did not start within 90 s; see ${outputFile}`);
    try {
      const candidate = JSON.parse(await readFile(infoFile, 'utf8')) as PlatformInfo;
      if (candidate.pid === child.pid) info = candidate;
    } catch {
      // Not written yet.
    }
    if (!info) await sleep(100);
  }
  return {
    info,
    logFile,
    outputFile,
    child,
    stop: async (signal = 'SIGINT') => {
      if (child.exitCode === null) child.kill(signal);
      const code = await exited;
      log.end();
      return code;
    },
  };
}
