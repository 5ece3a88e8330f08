import { readFile } from 'node:fs/promises';
import { createApiKey, verifyApiKey } from '../../functions/auth/api-keys.ts';

/**
 * Demo credentials for trying the platform. Only hashes live in the database, so the keys
 * themselves are kept in the local platform's info file and reused while they stay valid.
 */

export interface DemoCredentials {
  api_key: string;
  partner_api_key: string;
  partner_source: string;
}

export const DEMO_PARTNER_SOURCE = 'demo-partner';

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

export async function seedDemoCredentials(infoFile: string): Promise<DemoCredentials> {
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
  return { api_key: apiKey, partner_api_key: partnerKey, partner_source: DEMO_PARTNER_SOURCE };
}
