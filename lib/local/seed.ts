import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createApiKey, revokeApiKey, verifyApiKey } from '../../functions/auth/api-keys.ts';
import type { RateLimits } from '../../platform/plans.ts';
import { createClient, getActiveClient } from '../../functions/oauth/clients.ts';
import { ensureSigningKey } from '../../functions/oauth/signing-keys.ts';
import { createRider, getRider } from '../../functions/riders/profiles.ts';
import type { LocalIdentityProvider } from './identity-provider.ts';

/**
 * Demo credentials for trying the platform. Only hashes live in the database, so the keys
 * themselves are kept in the local platform's info file and reused while they stay valid. The
 * same goes for the demo rider's password and the demo OAuth app.
 */

export interface DemoCredentials {
  /** The free plan's demo key, as an app starting out has one. */
  api_key: string;
  /** The map playground's own key: the enterprise plan with PLAYGROUND_KEY_LIMITS (docs/playground.md). */
  playground_api_key: string;
  /** The key the README's and docs' walk-throughs use: the enterprise plan with WALKTHROUGH_KEY_LIMITS. */
  walkthrough_api_key: string;
  partner_api_key: string;
  partner_source: string;
  /** A public OAuth app for trying rider login (spec 5.5). */
  oauth_client_id: string;
  oauth_redirect_uri: string;
  /** A rider who can sign in at the local identity provider, or by email code. */
  rider_email: string;
  rider_password: string;
  rider_idp_user_id: string;
}

export const DEMO_PARTNER_SOURCE = 'demo-partner';
/**
 * Room for a person exploring the map: a plan by bike costs three requests per pair of points
 * (two routes and the explanation) and is asked again at each change of language, night mode,
 * profile or point, so re-planning every two seconds spends about 90 a minute. The free plan's 10
 * ran out after three plans. Multi-modal gets half of each window (README "Rate limits").
 */
export const PLAYGROUND_KEY_LIMITS: RateLimits = { perMinute: 120, perHour: 3_000, perDay: 20_000 };
/**
 * Room for the README's and docs' walk-throughs, followed in order in one sitting: about 70
 * requests, and the report walk-through polls once a second while the analysis runs. The free
 * plan's 10 a minute ran out at the twelfth call.
 */
export const WALKTHROUGH_KEY_LIMITS: RateLimits = { perMinute: 120, perHour: 2_000, perDay: 10_000 };
export const DEMO_RIDER = { email: 'demo.rider@spoke.test', name: 'Demo Rider' };
export const DEMO_OAUTH_REDIRECT_URI = 'http://localhost:8976/callback';

async function previousDemo(infoFile: string): Promise<Partial<DemoCredentials>> {
  try {
    return ((JSON.parse(await readFile(infoFile, 'utf8')) as { demo?: Partial<DemoCredentials> }).demo ?? {});
  } catch {
    return {};
  }
}

async function stillValid(key: string | undefined): Promise<boolean> {
  return Boolean(key && (await verifyApiKey(key)));
}

/** An enterprise key of the last start while it has these limits; after a change of them, a new key, and the old one revoked. */
async function enterpriseKey(previousKey: string | undefined, name: string, limits: RateLimits): Promise<string> {
  const record = previousKey ? await verifyApiKey(previousKey) : null;
  const windows = ['perMinute', 'perHour', 'perDay'] as const;
  if (record && windows.every((window) => record.limits[window] === limits[window])) return previousKey!;
  if (record) await revokeApiKey(record.key_id);
  return (await createApiKey({ name, plan: 'enterprise', limits })).key;
}

async function demoOAuthClient(previousId: string | undefined): Promise<string> {
  const previous = previousId ? await getActiveClient(previousId) : null;
  if (previous?.redirect_uris.includes(DEMO_OAUTH_REDIRECT_URI)) return previous.client_id;
  const { record } = await createClient({ name: 'Demo Ride Planner', type: 'public', redirectUris: [DEMO_OAUTH_REDIRECT_URI] });
  return record.client_id;
}

async function demoRider(identityProvider: LocalIdentityProvider, previousPassword: string | undefined) {
  const password =
    previousPassword && identityProvider.checkPassword(DEMO_RIDER.email, previousPassword)
      ? previousPassword
      : randomBytes(12).toString('base64url');
  const user = await identityProvider.saveUser({ ...DEMO_RIDER, password });
  if (!(await getRider(user.sub))) await createRider({ idpUserId: user.sub, email: user.email, name: user.name });
  return { rider_email: user.email, rider_password: password, rider_idp_user_id: user.sub };
}

export async function seedDemoCredentials(infoFile: string, identityProvider: LocalIdentityProvider): Promise<DemoCredentials> {
  const previous = await previousDemo(infoFile);
  const apiKey = (await stillValid(previous.api_key))
    ? previous.api_key!
    : (await createApiKey({ name: 'Demo app (free plan)', plan: 'free' })).key;
  const partnerKey = (await stillValid(previous.partner_api_key))
    ? previous.partner_api_key!
    : (
        await createApiKey({
          name: 'Demo partner',
          plan: 'partner',
          source: DEMO_PARTNER_SOURCE,
          limits: { perMinute: 120, perHour: 5_000, perDay: 50_000 },
        })
      ).key;
  const playground = await enterpriseKey(previous.playground_api_key, 'Map playground', PLAYGROUND_KEY_LIMITS);
  const walkthrough = await enterpriseKey(previous.walkthrough_api_key, 'README and docs walk-throughs', WALKTHROUGH_KEY_LIMITS);
  await ensureSigningKey();
  return {
    api_key: apiKey,
    playground_api_key: playground,
    walkthrough_api_key: walkthrough,
    partner_api_key: partnerKey,
    partner_source: DEMO_PARTNER_SOURCE,
    oauth_client_id: await demoOAuthClient(previous.oauth_client_id),
    oauth_redirect_uri: DEMO_OAUTH_REDIRECT_URI,
    ...(await demoRider(identityProvider, previous.rider_password)),
  };
}
