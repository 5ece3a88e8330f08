/**
 * `node --import ./test/bench/as-deployed/register.mjs file.ts`: runs TypeScript compiled the way
 * the Lambda bundle compiles it (esbuild, names not kept), for benchmarks that time the router.
 * tsx, which `npm run bench` and the tests run on, keeps every function's name by wrapping each
 * closure it creates in a naming call; on Central London's queries that made snap + search about
 * a quarter slower than the same code bundled (0.24 against 0.18 ms p50), which is not what runs
 * in Lambda (lib/spoke-function.ts bundles without kept names).
 */
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
