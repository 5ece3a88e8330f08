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
  /** It is no longer in a state that allows this (already decided, already used). */
  | 'conflict'
  /** It existed and has expired. */
  | 'expired';

export class DomainError extends Error {
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
