import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { tracedClient } from './tracing.ts';

/**
 * AWS SDK clients shared by a container's invocations. They are the same clients in AWS and in
 * the local platform: locally only the endpoints differ, through the SDK's own
 * `AWS_ENDPOINT_URL_DYNAMODB`, `AWS_ENDPOINT_URL_S3` and `AWS_ENDPOINT_URL_SQS` variables.
 * Created on first use so the environment is read after the local platform has set it. Their
 * calls are traced in Lambda (tracing.ts); the document client shares its plain client's.
 */

let dynamoDbClient: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;
let sqsClient: SQSClient | undefined;
let lambdaClient: LambdaClient | undefined;

/** The plain client under `dynamo()`, for libraries that marshal items themselves (Powertools idempotency). */
export function dynamoClient(): DynamoDBClient {
  dynamoDbClient ??= tracedClient(new DynamoDBClient({}));
  return dynamoDbClient;
}

export function dynamo(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(dynamoClient(), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function s3(): S3Client {
  // s3rver serves buckets by path, not by virtual host.
  s3Client ??= tracedClient(new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) }));
  return s3Client;
}

export function sqs(): SQSClient {
  sqsClient ??= tracedClient(new SQSClient({}));
  return sqsClient;
}

/** Invokes other functions of the platform (the routing dispatch its cities' functions); AWS only. */
export function lambda(): LambdaClient {
  lambdaClient ??= new LambdaClient({});
  return lambdaClient;
}
