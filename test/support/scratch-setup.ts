import { scratchFolder } from './scratch.ts';

/**
 * The test run's scratch folder (scratch.ts), removed when the run ends. Vitest runs the
 * projects' global setups before the root's, so each project lists this first; the first to run
 * makes the folder and owns its removal.
 */
export default function setup(): (() => void) | undefined {
  return scratchFolder('SPOKE_TEST_SCRATCH', 'spoke-test-run-') ?? undefined;
}
