import { APIGatewayClient, CreateApiKeyCommand, CreateUsagePlanKeyCommand, DeleteApiKeyCommand, NotFoundException, UpdateApiKeyCommand } from '@aws-sdk/client-api-gateway';

/**
 * In AWS each customer key also has an API Gateway API key in its plan's usage plan, so usage
 * plans meter and throttle it. Its value is derived from the key id (usage-keys.ts), never the
 * key itself; the authorizer returns the same derived value as `usageIdentifierKey`.
 * The exact per-minute/hour/day limits stay with the platform's own limiter. The local platform
 * has no usage plans, so only the operator CLI's AWS mode calls this.
 */

/** Creates an API Gateway API key with `value` in the usage plan named by `usagePlanEnvVar`; returns its id. */
export async function createUsagePlanKey(input: { value: string; name: string; usagePlanEnvVar: string }): Promise<string> {
  const usagePlanId = process.env[input.usagePlanEnvVar];
  if (!usagePlanId) throw new Error(`Set ${input.usagePlanEnvVar} to the usage plan id (a stack output)`);
  const client = new APIGatewayClient({});
  try {
    const created = await client.send(new CreateApiKeyCommand({ name: input.name, value: input.value, enabled: true }));
    await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: created.id!, keyType: 'API_KEY' }));
    return created.id!;
  } finally {
    client.destroy();
  }
}

/** Deletes an API Gateway API key (and so its place in its usage plan); one already gone is fine. */
export async function deleteUsagePlanKey(usageKeyId: string): Promise<void> {
  const client = new APIGatewayClient({});
  try {
    await client.send(new DeleteApiKeyCommand({ apiKey: usageKeyId }));
  } catch (error) {
    if (!(error instanceof NotFoundException)) throw error;
  } finally {
    client.destroy();
  }
}

export async function disableUsagePlanKey(usageKeyId: string): Promise<void> {
  const client = new APIGatewayClient({});
  try {
    await client.send(
      new UpdateApiKeyCommand({ apiKey: usageKeyId, patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }] }),
    );
  } finally {
    client.destroy();
  }
}
