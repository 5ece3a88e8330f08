import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';
import { getReport, type ReportItem } from '../../functions/reports/store.ts';
import { call, newKey, runAdmin, useLocalAws } from '../support/running-platform.ts';

/** Helpers for the road-report tests against the running local platform. */

/**
 * Points on named roads of the sample London graph. Tests that assert a whole summary file on a
 * road no other test uses, since reports of the same problem nearby are grouped.
 */
export const RUSSELL_SQUARE: [number, number] = [-0.1246, 51.5219];
export const GOWER_STREET: [number, number] = [-0.131, 51.521];
export const ALFRED_MEWS: [number, number] = [-0.134, 51.521];

export type Credential = { apikey: string } | { Authorization: string };

export const bearer = (token: string): Credential => ({ Authorization: `Bearer ${token}` });
export const keyed = (key: string): Credential => ({ apikey: key });

export async function fileReport(credential: Credential, body: unknown, headers: Record<string, string> = {}) {
  return call('/reports/', { method: 'POST', headers: { ...credential, ...headers }, body });
}

export async function readReport(credential: Credential, id: string, path = `/reports/${id}`) {
  return call(path, { headers: { ...credential } });
}

/** A partner key with generous limits, so tests that file many reports never meet them. */
export async function partnerKey(source: string): Promise<string> {
  return newKey({ name: `partner ${source}`, plan: 'partner', source, limits: { perMinute: 500, perHour: 5_000, perDay: 50_000 } });
}

export async function enterpriseKey(): Promise<string> {
  return newKey({ name: 'enterprise', plan: 'enterprise', limits: { perMinute: 500, perHour: 5_000, perDay: 50_000 } });
}

/** The stored report, straight from DynamoDB. */
export async function storedReport(id: string): Promise<ReportItem> {
  useLocalAws();
  const report = await getReport(id);
  expect(report, `report ${id} is stored`).not.toBeNull();
  return report!;
}

/** Polls GET /reports/{id} as a client would (only faster), until `done` holds. */
export async function pollReport(credential: Credential, id: string, done: (body: any) => boolean, timeoutMs = 20_000): Promise<any> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const response = await readReport(credential, id);
    expect(response.status).toBe(200);
    if (done(response.body)) return response.body;
    if (performance.now() > deadline) throw new Error(`report ${id} stayed ${JSON.stringify(response.body)}`);
    await sleep(200);
  }
}

export const inReview = (credential: Credential, id: string) => pollReport(credential, id, (body) => body.status === 'in_review');

/**
 * A rate-limit bucket's counts (functions/ratelimit/limiter.ts keeps one attribute per window,
 * named after its start, `<scope>.` before an endpoint's own windows): the busiest hour and day
 * window the item holds, of the caller's general windows or of `scope`'s.
 */
export async function rateBucket(bucketId: string, scope?: string): Promise<{ hour: { used: number }; day: { used: number } } | undefined> {
  useLocalAws();
  const result = await dynamo().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket_id: bucketId }, ConsistentRead: true }));
  if (!result.Item) return undefined;
  const namePrefix = scope ? `${scope}.` : '';
  const busiest = (kind: string) => Math.max(0, ...Object.entries(result.Item!).filter(([name]) => name.startsWith(namePrefix) && new RegExp(`^${kind}\\d+$`).test(name.slice(namePrefix.length))).map(([, used]) => Number(used)));
  return { hour: { used: busiest('h') }, day: { used: busiest('d') } };
}

/** The operator CLI against the running platform, as a named reviewer runs it. */
export const admin = (...args: string[]) => runAdmin(args, { SPOKE_REVIEWER: 'test-reviewer' });
