import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyPersistenceLayerError,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { dynamoClient } from '../../platform/aws.ts';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError, type RepeatableRequest } from '../../platform/idempotency.ts';
import { logger } from '../../platform/logger.ts';
import { recordMetric } from '../../platform/metrics.ts';
import { tableName } from '../../platform/resources.ts';

/**
 * The first answer to a request sent with an `Idempotency-Key` (IETF httpapi idempotency-key
 * draft), kept for 24 hours by Powertools idempotency in the `idempotency` table:
 *
 * - the first request under a key runs, and its answer (status, headers, body) is stored;
 * - the same key with the same body gets that answer again, marked `Idempotent-Replayed: true`;
 * - the same key with another body answers 422 (`IdempotencyKeyReusedError`);
 * - while the first request is still running, the key answers 409 (`IdempotencyKeyInUseError`).
 *
 * A record is keyed by a SHA-256 of endpoint, caller and key, so one caller can never reach
 * another's answer whatever key it guesses. A request that fails is not recorded: its key can be
 * sent again. If the function dies between its own write and recording the answer, the record
 * stays "in progress" until the invocation's deadline and the next send runs again; the domain
 * derives what it writes from the request (`repeatableId`), so that run finds the first write
 * instead of making a second.
 *
 * `endpoint()` wraps the handler's answer with Powertools' function wrapper (`makeIdempotent`)
 * rather than using its middy middleware: the chain turns refusals into answers in its own
 * `onError` and adds per-request headers (request id, rate limits) after the handler, which must
 * not be replayed, and the record is keyed by the caller the chain has established, not by
 * anything in the raw event. The wrapper stores exactly the handler's answer.
 */

export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
export const REPLAYED_HEADER = 'Idempotent-Replayed';

interface RecordKey extends RepeatableRequest {
  endpoint: string;
}

let persistence: DynamoDBPersistenceLayer | undefined;
const store = (): DynamoDBPersistenceLayer =>
  (persistence ??= new DynamoDBPersistenceLayer({ tableName: tableName('idempotency'), awsSdkV3Client: dynamoClient() }));

/** `answer()` once per repeatable request: its result the first time, the stored result after. */
export async function answerOnce(
  endpointId: string,
  request: RepeatableRequest,
  context: Context,
  answer: () => Promise<APIGatewayProxyResult>,
): Promise<APIGatewayProxyResult> {
  let produced: APIGatewayProxyResult | undefined;
  const once = makeIdempotent(async (_record: RecordKey) => (produced = await answer()), {
    persistenceStore: store(),
    keyPrefix: 'spoke',
    config: new IdempotencyConfig({
      eventKeyJmesPath: '[endpoint, caller, key]',
      payloadValidationJmesPath: 'fingerprint',
      throwOnNoIdempotencyKey: true,
      expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
      hashFunction: 'sha256',
      // The deadline of an answer "in progress": this invocation's.
      lambdaContext: context,
      responseHook: (stored) => {
        recordMetric('IdempotentReplays', 1, { Endpoint: endpointId });
        const result = stored as unknown as APIGatewayProxyResult;
        return { ...result, headers: { ...result.headers, [REPLAYED_HEADER]: 'true' } } as never;
      },
    }),
  });
  try {
    return (await once({ endpoint: endpointId, ...request })) as APIGatewayProxyResult;
  } catch (error) {
    if (error instanceof IdempotencyAlreadyInProgressError) {
      recordMetric('IdempotentInProgress', 1, { Endpoint: endpointId });
      throw new IdempotencyKeyInUseError();
    }
    if (error instanceof IdempotencyValidationError) throw new IdempotencyKeyReusedError();
    if (error instanceof IdempotencyPersistenceLayerError && produced) {
      // The work is done and only recording its answer failed: the caller gets the answer. A
      // repeat meets the key "in progress" until this invocation's deadline, then runs again and
      // finds what this run wrote.
      logger.warn('idempotency: answer not recorded', { endpoint: endpointId, error: (error.cause as Error | undefined) ?? error });
      return produced;
    }
    throw error;
  }
}
