/**
 * The entry of the worker thread a city's routing function runs in (lib/local/city-router-threads.ts),
 * in the order a Lambda container starts: on Node 20 a worker thread runs none of its parent's
 * module hooks (`--import tsx`), so the thread registers tsx's before it loads any TypeScript;
 * then the runtime's InvokeStore, which Powertools looks for as its modules load (the thread
 * shares the parent's `AWS_LAMBDA_MAX_CONCURRENCY`); then the function.
 */
import { register } from 'tsx/esm/api';

register();
const { enableConcurrentInvocations, initialize } = await import('./invocations.ts');
await enableConcurrentInvocations();
await initialize(() => import('./city-router-thread.ts'));
