/**
 * Errors domain code throws when it refuses something: what went wrong, in the domain's words,
 * and never an HTTP status. The HTTP boundary maps them to answers in one place
 * (`httpErrorOf` in functions/http/errors.ts), so the same refusal reads as the spec's JSON body
 * on an API endpoint and as an error page on the consent screen.
 */

/** Why a request was refused; functions/http/errors.ts gives each its status. */
export type RefusalKind =
  /** The input breaks a rule the domain enforces. */
  | 'invalid'
  /** What was asked for does not exist, or is not the caller's. */
  | 'not-found'
  /** It exists, but this caller, browser or form may not act on it. */
  | 'forbidden'
  /** It is no longer in a state that allows this (already decided, already used, still in progress). */
  | 'conflict'
  /** It is well formed but contradicts what the same request said before (an Idempotency-Key sent with another body). */
  | 'unprocessable'
  /** It existed and has expired. */
  | 'expired'
  /** It is larger than the domain accepts (an upload beyond its size limit). */
  | 'too-large'
  /** The caller has used up an allowance of the domain's own; `LimitReachedError` says when it renews. */
  | 'limited'
  /** The domain could not complete it for a reason of its own, already logged where it happened. */
  | 'failed';

export class DomainError extends Error {
  /** A stable name for the refusal that clients can test (the spec's `code`), where one helps. */
  readonly code?: string;

  constructor(
    readonly kind: RefusalKind,
    /** One line for whoever reads the answer: a developer, or a rider on a page (its title). */
    message: string,
    /** A second sentence: what to do next, or every problem when there are several. */
    readonly details?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The thing asked for does not exist, or is not the caller's to see (spec 7: 404). */
export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('not-found', message);
  }
}

/** An input refused field by field (spec 7: a profile update's validation body maps each field to its messages). */
export class FieldValidationError extends DomainError {
  constructor(readonly fields: Record<string, string[]>) {
    super(
      'invalid',
      Object.entries(fields)
        .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
        .join('; '),
    );
  }
}

/** An allowance the domain counts itself is used up (spec 8: image uploads per day); it renews after `retryAfterSeconds`. */
export class LimitReachedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('limited', message);
  }
}
