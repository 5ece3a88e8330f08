import { ConditionalCheckFailedException, ResourceNotFoundException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/** The SDK's own errors, as DynamoDB (and dynalite, through the SDK) raises them. */
const meta = { $metadata: {} };
const singleWrite = new ConditionalCheckFailedException({ message: 'The conditional request failed', ...meta });
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'Transaction cancelled', CancellationReasons: codes.map((Code) => ({ Code })), ...meta });

describe('conditionFailed', () => {
  it("reads a single write's refusal as the failure of its only action", () => {
    expect(conditionFailed(singleWrite)).toBe(true);
    expect(conditionFailed(singleWrite, 0)).toBe(true);
    expect(conditionFailed(singleWrite, 1)).toBe(false);
  });

  it("reads a cancelled transaction's reasons by action", () => {
    const second = cancelled('None', 'ConditionalCheckFailed');
    expect(conditionFailed(second)).toBe(true);
    expect(conditionFailed(second, 0)).toBe(false);
    expect(conditionFailed(second, 1)).toBe(true);
    expect(conditionFailed(cancelled('TransactionConflict', 'None'))).toBe(false);
  });

  it('is false for every other error, and for what is not an error', () => {
    expect(conditionFailed(new ResourceNotFoundException({ message: 'no table', ...meta }))).toBe(false);
    expect(conditionFailed(new Error('ConditionalCheckFailedException'))).toBe(false);
    expect(conditionFailed(undefined)).toBe(false);
    expect(conditionFailed(null, 0)).toBe(false);
  });

  it('tells errors apart by name, as the local transaction support raises them', () => {
    expect(conditionFailed({ name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] }, 0)).toBe(true);
  });
});
