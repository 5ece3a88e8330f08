import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmfOutput } from '@aws-lambda-powertools/metrics/types';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CityFunctionError } from '../../functions/dispatch/city-invoker.ts';
import { cityRouterThreads, type CityRouterThreads } from '../../lib/local/city-router-threads.ts';
import { withClockStoppedAt } from '../../platform/clock.ts';
import { STAND_IN_METRIC, type StandInRequest } from './city-router-stand-in.ts';

/** The local platform's cities' routing functions, each in a worker thread of its own (lib/local/city-router-threads.ts). */
describe("the cities' routing threads", () => {
  const documents: EmfOutput[] = [];
  const logged: string[] = [];
  let threads: CityRouterThreads;

  beforeAll(() => {
    threads = cityRouterThreads({ entry: 'test/local-platform/city-router-stand-in.ts', onMetrics: (document) => documents.push(document), log: (line) => logged.push(line) });
  });
  afterAll(() => threads.stop());

  const event = (request: StandInRequest) => ({ resource: '/directions/v2', body: JSON.stringify(request) }) as unknown as APIGatewayProxyEvent;
  const answerOf = (body: string) => JSON.parse(body) as { city: string; nowMs: number };

  it("answers one city while another city's thread is held by a request", async () => {
    const release = join(await mkdtemp(join(tmpdir(), 'spoke-router-threads-')), 'release');
    let heldAnswered = false;
    const held = threads.invoker('new-york', event({ holdUntilExists: release })).then((answer) => {
      heldAnswered = true;
      return answer;
    });
    // In one thread this would wait for New York's request, which waits for the file written below.
    const other = await threads.invoker('london', event({}));
    expect(answerOf(other.body).city).toBe('london');
    expect(heldAnswered).toBe(false);
    await writeFile(release, '');
    expect(answerOf((await held).body).city).toBe('new-york');
  });

  it("runs each invocation under the caller's moved clock", async () => {
    const instant = Date.UTC(2031, 4, 6, 7, 8, 9);
    const answer = await withClockStoppedAt(instant, () => threads.invoker('london', event({})));
    expect(answerOf(answer.body).nowMs).toBe(instant);
  });

  it("hands the metrics its function publishes to the platform's metrics log", async () => {
    const before = documents.filter((document) => STAND_IN_METRIC in document).length;
    await threads.invoker('sf-bay', event({}));
    expect(documents.filter((document) => STAND_IN_METRIC in document).length).toBe(before + 1);
  });

  it('fails an invocation that throws as a Lambda invoke does, naming only the error type', async () => {
    const failed = threads.invoker('london', event({ fail: true }));
    await expect(failed).rejects.toBeInstanceOf(CityFunctionError);
    await expect(failed).rejects.toThrow('The routing function of london failed (Unhandled: TypeError)');
    // The thread goes on serving.
    expect((await threads.invoker('london', event({}))).statusCode).toBe(200);
  });
});
