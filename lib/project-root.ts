import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root folder: what CDK bundling resolves each Lambda's entry and static inputs
 * against, and where the local platform and the tools find the repository's own files. Deployed
 * Lambdas never read it.
 */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
