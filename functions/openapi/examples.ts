import recorded from './examples.json' with { type: 'json' };

/**
 * Request and response examples of the documents: real requests and the platform's real answers
 * to them, recorded from a local platform by `npm run openapi:examples` (test/openapi/
 * record-examples.ts), which checks each against its schema before writing examples.json. The
 * documents' lint checks them again (`no-invalid-media-type-examples`).
 */

export interface OperationExamples {
  request?: unknown;
  /** By status code. */
  responses: Record<string, unknown>;
}

const byOperation = recorded as Record<string, OperationExamples>;

export const examplesFor = (operationId: string): OperationExamples => byOperation[operationId] ?? { responses: {} };
