import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';

/**
 * Integer ids (spec 2.3, 2.4) from one atomic counter per kind: `ADD last_id 1` returns the new
 * value, so concurrent writers never get the same id. An id taken by a write that then fails is
 * simply never used.
 */

export type Sequence = 'events' | 'destinations' | 'categories';

export async function nextId(sequence: Sequence): Promise<number> {
  const result = await dynamo().send(
    new UpdateCommand({
      TableName: tableName('idSequences'),
      Key: { sequence },
      UpdateExpression: 'ADD last_id :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return result.Attributes!.last_id as number;
}
