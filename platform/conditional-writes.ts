/**
 * DynamoDB's answer when a write's condition did not hold, in the one place that reads it. A
 * single write fails with `ConditionalCheckFailedException`; a transaction is cancelled as a
 * whole (`TransactionCanceledException`) with one reason per action, in the order they were
 * given. Errors are told apart by name, not class, so errors built by the local platform's
 * transaction support and by another copy of the SDK read the same.
 */

interface DynamoError {
  readonly name?: string;
  readonly CancellationReasons?: readonly ({ readonly Code?: string } | undefined)[];
}

/**
 * Whether `error` is a write refused because its condition did not hold: a single write's, or,
 * for a transaction, the condition on action `action` (any action when none is named).
 */
export function conditionFailed(error: unknown, action?: number): boolean {
  const { name, CancellationReasons: reasons } = (error ?? {}) as DynamoError;
  if (name === 'ConditionalCheckFailedException') return action === undefined || action === 0;
  if (name !== 'TransactionCanceledException') return false;
  const failed = (reason: { readonly Code?: string } | undefined) => reason?.Code === 'ConditionalCheckFailed';
  return action === undefined ? (reasons ?? []).some(failed) : failed(reasons?.[action]);
}
