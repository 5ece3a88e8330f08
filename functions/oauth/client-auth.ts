import { header } from '../http/forms.ts';
import { getActiveClient, secretMatches, type OAuthClientRecord } from './clients.ts';
import { oauthError } from '../../platform/oauth-errors.ts';

/**
 * Who is calling the token or revocation endpoint (spec 4.5, RFC 6749 2.3): a confidential app
 * with HTTP Basic (client id and secret, each form-encoded, RFC 6749 2.3.1), a public app with
 * `client_id` in the body and nothing else. Any mismatch is `invalid_client`.
 */

function decodeBasicPart(part: string): string {
  return decodeURIComponent(part.replace(/\+/g, ' '));
}

function basicCredentials(authorization: string | undefined): { clientId: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) throw oauthError('invalid_client', 'HTTP Basic credentials must be client_id:client_secret');
  try {
    return { clientId: decodeBasicPart(decoded.slice(0, separator)), secret: decodeBasicPart(decoded.slice(separator + 1)) };
  } catch {
    throw oauthError('invalid_client', 'HTTP Basic credentials are not properly encoded');
  }
}

export async function authenticateClient(
  headers: Record<string, string | undefined>,
  body: { client_id?: string; client_secret?: string },
): Promise<OAuthClientRecord> {
  const authorization = header(headers, 'authorization');
  const basic = basicCredentials(authorization);
  if (authorization && !basic) throw oauthError('invalid_client', 'Only HTTP Basic client authentication is supported');
  if (body.client_secret !== undefined) {
    throw oauthError('invalid_client', 'Send the client secret with HTTP Basic authentication, not in the body');
  }
  if (basic) {
    if (body.client_id !== undefined && body.client_id !== basic.clientId) {
      throw oauthError('invalid_request', 'client_id in the body differs from the authenticated client');
    }
    const client = await getActiveClient(basic.clientId);
    if (!client || client.type !== 'confidential' || !secretMatches(client, basic.secret)) {
      throw oauthError('invalid_client', 'Client authentication failed');
    }
    return client;
  }
  if (!body.client_id) throw oauthError('invalid_client', 'Client authentication failed: send client_id, or HTTP Basic for a confidential app');
  const client = await getActiveClient(body.client_id);
  if (!client) throw oauthError('invalid_client', 'Client authentication failed');
  if (client.type === 'confidential') throw oauthError('invalid_client', 'This app is confidential: authenticate with HTTP Basic');
  return client;
}
