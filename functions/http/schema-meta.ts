/**
 * Metadata the response schemas share. An answer's field that the spec does not define is marked
 * with the `x-spoke-extension` vendor extension, which the OpenAPI documents carry and explain.
 */
export const beyondTheSpec = { 'x-spoke-extension': true } as const;
