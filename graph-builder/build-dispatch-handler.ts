import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { isCityId, type CityId } from '../core/cities/cities.ts';
import { sqs } from '../platform/aws.ts';
import { withInvocationLogging } from '../platform/invocation-logging.ts';
import { logger } from '../platform/logger.ts';
import type { CityBuildMessage } from './nightly-handler.ts';

/**
 * Starts one build per city: a message `{"city": "<id>"}` on each city's build queue, whose own
 * function builds it (graph-builder/nightly-handler.ts). The daily schedule invokes this, and so
 * does the stack after every deployment that changes it or the uploaded inputs (a CloudFormation
 * trigger), so a new stack builds its first graphs within minutes and a deploy of new inputs
 * rebuilds with them. A city whose sources did not change publishes nothing new.
 *
 * Configuration: GRAPH_BUILD_QUEUES, JSON object of city id -> its build queue's URL.
 */

export const BUILD_QUEUES_ENV_VAR = 'GRAPH_BUILD_QUEUES';

export function buildQueues(env: NodeJS.ProcessEnv = process.env): Map<CityId, string> {
  const text = env[BUILD_QUEUES_ENV_VAR];
  if (!text) throw new Error(`${BUILD_QUEUES_ENV_VAR} is not set`);
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const queues = new Map<CityId, string>();
  for (const [city, url] of Object.entries(parsed)) {
    if (!isCityId(city) || typeof url !== 'string') throw new Error(`${BUILD_QUEUES_ENV_VAR} names ${city} -> ${String(url)}; city ids to queue URLs were expected`);
    queues.set(city, url);
  }
  return queues;
}

async function dispatch(): Promise<{ cities: CityId[] }> {
  const cities: CityId[] = [];
  for (const [city, queueUrl] of buildQueues()) {
    const message: CityBuildMessage = { city };
    await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
    cities.push(city);
  }
  logger.info('graph builds queued', { cities });
  return { cities };
}

export const handler = withInvocationLogging(dispatch);
