import { setTimeout as sleep } from 'node:timers/promises';
import middy from '@middy/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { invocationLogging, type GatewayEvent } from '../../platform/invocation-logging.ts';
import { logger } from '../../platform/logger.ts';
import { enableConcurrentInvocations, invoke } from '../../lib/local/invocations.ts';
import { lambdaContext } from '../../lib/local/queue.ts';

/**
 * The logging chain with invocations sharing one process, as the local platform and Lambda's
 * concurrent runtime run them: each line carries its own invocation's ids however the
 * invocations interleave, and a line outside any invocation is still written.
 */
describe('invocation logging with concurrent invocations', () => {
  const written: Record<string, unknown>[] = [];
  beforeAll(async () => {
    await enableConcurrentInvocations();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    written.length = 0;
  });
  const capture = () =>
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      const text = String(chunk);
      if (text.startsWith('{')) written.push(JSON.parse(text) as Record<string, unknown>);
      return true;
    });

  /** A handler that logs before and after a pause, so invocations interleave. */
  const handler = middy<GatewayEvent & { pauseMs: number; step: string }, void>()
    .use(invocationLogging())
    .handler(async (event) => {
      logger.info('first', { step: event.step });
      await sleep(event.pauseMs);
      logger.info('second', { step: event.step });
    });

  it('keeps each invocation’s request id and Lambda context on its own lines', async () => {
    capture();
    const runs = Array.from({ length: 8 }, (_, index) => {
      const context = lambdaContext(`function-${index}`, 5);
      const event = { requestContext: { requestId: `gateway-request-${index}` }, pauseMs: 40 - index * 5, step: String(index) };
      return invoke(context, () => handler(event, context)).then(() => context.awsRequestId);
    });
    const invocationIds = await Promise.all(runs);

    expect(written).toHaveLength(16);
    for (const line of written) {
      const index = Number(line.step);
      expect(line).toMatchObject({ correlation_id: `gateway-request-${index}`, function_request_id: invocationIds[index], function_name: `function-${index}` });
    }
    // The pauses reversed the order: the invocations really did overlap.
    expect(written.filter((line) => line.message === 'second').map((line) => line.step)).toEqual(['7', '6', '5', '4', '3', '2', '1', '0']);
  });

  it('writes a line outside any invocation without an invocation’s keys', async () => {
    capture();
    const context = lambdaContext('before', 5);
    await invoke(context, () => handler({ requestContext: { requestId: 'gateway-request' }, pauseMs: 0, step: 'inside' }, context));
    logger.info('outside');
    expect(written.at(-1)).toMatchObject({ message: 'outside' });
    expect(written.at(-1)).not.toHaveProperty('correlation_id');
    expect(written.at(-1)).not.toHaveProperty('function_request_id');
  });
});
