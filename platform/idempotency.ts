import { createHash } from 'node:crypto';
import { DomainError } from './errors.ts';

/**
 * A request its client may send more than once under one `Idempotency-Key` (IETF httpapi
 * idempotency-key draft): what makes two sends the same request, and what domain code needs to
 * write its result at most once. The HTTP layer keeps the first answer
 * (functions/http/idempotent-answers.ts); domain code derives the ids it writes from the request
 * (`repeatableId`), so that a send which runs again after a crash finds what the first one wrote
 * instead of writing it twice.
 */
export interface RepeatableRequest {
  /** Who sent it (a key, a rider, an app for a rider): one caller's key never meets another's. */
  caller: string;
  /** The client's `Idempotency-Key`. */
  key: string;
  /** SHA-256 of the request body: the same key with another body is a misuse, not a repeat. */
  fingerprint: string;
}

/** The same key was sent with another body (the draft's 422). */
export class IdempotencyKeyReusedError extends DomainError {
  override readonly code = 'IDEMPOTENCY_KEY_REUSED';
  constructor() {
    super('unprocessable', 'Idempotency-Key was already used with a different request body; send a new key for a new request');
  }
}

/** The first request under this key has not finished yet (the draft's 409). */
export class IdempotencyKeyInUseError extends DomainError {
  override readonly code = 'IDEMPOTENCY_KEY_IN_USE';
  constructor() {
    super('conflict', 'A request with this Idempotency-Key is still in progress; retry after it has finished');
  }
}

/**
 * 256 bits that name what `purpose` writes for this request: the same for every send of it,
 * unrelated for any other caller, key or purpose.
 */
export function repeatableId(request: RepeatableRequest, purpose: string): Buffer {
  return createHash('sha256').update([purpose, request.caller, request.key].join('\u0000')).digest();
}

/** A UUID from `repeatableId` (RFC 9562 version 8, the layout left to the application). */
export function repeatableUuid(request: RepeatableRequest, purpose: string): string {
  const bytes = repeatableId(request, purpose).subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
