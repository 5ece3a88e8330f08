/**
 * Token and revocation endpoint errors (RFC 6749 5.2, RFC 7009 2.2.1): an error code and a
 * description for the app's developer. The HTTP boundary (functions/http/errors.ts) answers them
 * as the RFC's JSON body `{error, error_description}` with the RFC's status.
 */

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type';

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
  ) {
    super(`${code}: ${description}`);
    this.name = 'OAuthError';
  }
}

export const oauthError = (code: OAuthErrorCode, description: string): OAuthError => new OAuthError(code, description);

export const invalidGrant = (description: string): OAuthError => oauthError('invalid_grant', description);
