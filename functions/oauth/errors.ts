import { HttpError } from '../http/errors.ts';

/**
 * Token and revocation endpoint errors (RFC 6749 5.2, RFC 7009 2.2.1): a JSON body
 * `{error, error_description}` with the RFC's status codes.
 */

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type';

export function oauthError(code: OAuthErrorCode, description: string, headers: Record<string, string> = {}): HttpError {
  // 401 for a client that failed to authenticate; the challenge names the scheme it should use.
  const status = code === 'invalid_client' ? 401 : 400;
  const challenge: Record<string, string> = code === 'invalid_client' ? { 'WWW-Authenticate': 'Basic realm="spoke-oauth", charset="UTF-8"' } : {};
  return new HttpError(status, { error: code, error_description: description }, { ...challenge, ...headers });
}

export const invalidGrant = (description: string): HttpError => oauthError('invalid_grant', description);
