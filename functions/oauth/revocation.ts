import { z } from 'zod';
import { claimsOurIssuer, verifyAccessToken } from './access-tokens.ts';
import { authenticateClient } from './client-auth.ts';
import { findRefreshToken, looksLikeRefreshToken, revokeGrant } from './grants.ts';

/**
 * Token revocation (RFC 7009): an app revokes a refresh or access token it holds, for example
 * when the rider signs out. Either revokes the whole grant, so the refresh-token family and
 * every access token from it stop at once. Tokens that are unknown, expired, already revoked or
 * belong to another app change nothing and get the same 200, so the endpoint reveals nothing.
 */

export const revocationRequest = z.object({
  token: z.string({ error: 'token is required' }).max(4_096),
  /** A hint only (RFC 7009 2.1); the token's own form says what it is. */
  token_type_hint: z.string().max(50).optional(),
  client_id: z.string().max(200).optional(),
  client_secret: z.string().max(500).optional(),
});

export async function revoke(body: z.output<typeof revocationRequest>, headers: Record<string, string | undefined>): Promise<void> {
  const client = await authenticateClient(headers, body);
  if (looksLikeRefreshToken(body.token)) {
    const record = await findRefreshToken(body.token);
    if (record && record.client_id === client.client_id) await revokeGrant(record.grant_id, 'revoked by the app');
    return;
  }
  if (claimsOurIssuer(body.token)) {
    const check = await verifyAccessToken(body.token);
    if (check.valid && check.claims.client_id === client.client_id) await revokeGrant(check.grant.grant_id, 'revoked by the app');
  }
}
