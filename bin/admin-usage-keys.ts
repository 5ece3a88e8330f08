import { setTimeout as sleep } from 'node:timers/promises';
import { apiGatewayRegistry, localRegistry, rotateUsageKeySecret } from '../functions/auth/usage-key-registration.ts';
import { usageKeySecretStore } from '../functions/auth/usage-keys.ts';

/**
 * `npm run admin -- usage-keys rotate-secret [--aws]`: rotates the secret customer keys'
 * usage-plan key values are derived under (functions/auth/usage-key-registration.ts). With --aws the
 * stack's Secrets Manager secret (USAGE_KEY_SECRET_ARN) and the usage plans (SPOKE_USAGE_PLAN_*);
 * locally the platform's secrets file, and no usage plans. docs/operations.md, "Rotating the usage-key secret".
 */

export class UsageKeysUsageError extends Error {}

export async function usageKeysCommand(command: string | undefined, aws: boolean): Promise<void> {
  if (command !== 'rotate-secret') throw new UsageKeysUsageError('Usage: admin usage-keys rotate-secret [--aws]');
  const store = usageKeySecretStore();
  if (!store) throw new UsageKeysUsageError('USAGE_KEY_SECRET gives one fixed secret, which cannot rotate; unset it');
  await rotateUsageKeySecret({
    store,
    registry: aws ? apiGatewayRegistry : localRegistry,
    wait: (ms) => sleep(ms),
    log: (line) => console.log(line),
  });
}
