import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../functions/auth/api-keys.ts';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';
import { consumeTokens } from '../../functions/ratelimit/limiter.ts';
import { TEST_CLOCK_AT_HEADER } from '../../lib/local/gateway.ts';
import { awayFromWindowEdge, call, londonPair, newKey, useLocalAws } from '../support/running-platform.ts';

const route = (points: number) => ({
  coordinates: Array.from({ length: points }, (_, index) => [-0.13 + index * 0.001, 51.52]),
});
const admitted = (status: number) => status !== 429;

describe('rate limits', () => {
  it('gives a free key 10 requests a minute, then 429 with Retry-After', async () => {
    // Every request at one instant of the platform's clock, 20 s into its minute: the window, the
    // wait and the reset follow from it, whatever the hour the test runs at.
    const at = Date.parse('2026-06-15T10:00:20Z');
    const headers = { [TEST_CLOCK_AT_HEADER]: new Date(at).toISOString() };
    const key = await newKey();
    const remaining: number[] = [];
    for (let index = 0; index < 10; index++) {
      const response = await call('/directions/v2/', { key, headers, body: { coordinates: londonPair } });
      expect(admitted(response.status)).toBe(true);
      expect(response.headers.get('x-ratelimit-limit')).toBe('10');
      remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

    const refused = await call('/directions/v2/', { key, headers, body: { coordinates: londonPair } });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('Rate limit exceeded');
    // The minute opened at 10:00:00 closes at 10:01:00: 40 s from the requests' instant.
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset).toBe(Date.parse('2026-06-15T10:01:00Z') / 1000);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(39);
    expect(retryAfter).toBeLessThanOrEqual(40);
    expect(refused.body.retry_after_seconds).toBe(retryAfter);
  });

  it('charges one token per consecutive coordinate pair and refuses a request whole', async () => {
    await awayFromWindowEdge(60, 15);
    const key = await newKey();
    const first = await call('/directions/v2/', { key, body: route(5) });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('6');
    const second = await call('/directions/v2/', { key, body: route(5) });
    expect(second.headers.get('x-ratelimit-remaining')).toBe('2');
    const tooMany = await call('/directions/v2/', { key, body: route(4) });
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('x-ratelimit-remaining')).toBe('2');
    const fits = await call('/directions/v2/', { key, body: route(3) });
    expect(admitted(fits.status)).toBe(true);
    expect(fits.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('explains a request that costs more than the plan ever allows per minute', async () => {
    const key = await newKey();
    const response = await call('/directions/v2/', { key, body: route(25) });
    expect(response.status).toBe(429);
    expect(response.body.details).toMatch(/costs 24 tokens, more than the 10 per minute/);
  });

  it('does not charge requests refused before validation passed, but reports the headers', async () => {
    await awayFromWindowEdge(60, 10);
    const key = await newKey();
    const invalid = await call('/directions/v2/', { key, body: { coordinates: [] } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('10');
    const valid = await call('/directions/v2/', { key, body: { coordinates: londonPair } });
    expect(valid.headers.get('x-ratelimit-remaining')).toBe('9');
  });

  it('keeps hour and day windows across minutes (controlled clock, real table)', async () => {
    useLocalAws();
    const limits = { perMinute: 2, perHour: 3, perDay: 4 };
    const bucket = `test:${crypto.randomUUID()}`;
    const dayStart = Date.UTC(2026, 10, 21);
    const at = (seconds: number) => () => dayStart + seconds * 1000;
    const take = (seconds: number) => consumeTokens(bucket, limits, 1, at(seconds));
    expect((await take(0)).allowed).toBe(true);
    expect((await take(1)).allowed).toBe(true);
    const minuteFull = await take(2);
    expect(minuteFull.allowed).toBe(false);
    expect(minuteFull.retryAfterSeconds).toBe(58);
    expect((await take(60)).allowed).toBe(true);
    const hourFull = await take(61);
    expect(hourFull.allowed).toBe(false);
    expect(hourFull.retryAfterSeconds).toBe(3600 - 61);
    expect(hourFull.report).toEqual({ limit: 3, remaining: 0, reset: dayStart / 1000 + 3600 });
    expect((await take(3600)).allowed).toBe(true);
    const dayFull = await take(7200);
    expect(dayFull.allowed).toBe(false);
    expect(dayFull.retryAfterSeconds).toBe(86_400 - 7200);
    expect((await take(86_400)).allowed).toBe(true);
  });

  it('stays exact under concurrent requests from the gateway and from other containers', async () => {
    await awayFromWindowEdge(60, 20);
    useLocalAws();
    const limit = 25;
    const key = await newKey({ name: 'concurrency', plan: 'enterprise', limits: { perMinute: limit, perHour: 1000, perDay: 1000 } });
    const bucket = `key:${keyIdOf(key)}`;
    const limits = { perMinute: limit, perHour: 1000, perDay: 1000 };
    // 40 HTTP requests through the local gateway and 20 direct takes from this process, which
    // plays a second Lambda container sharing the same table.
    const overHttp = Array.from({ length: 40 }, () => call('/directions/v2/', { key, body: { coordinates: londonPair } }).then((r) => admitted(r.status)));
    const fromOtherContainer = Array.from({ length: 20 }, () => consumeTokens(bucket, limits, 1).then((decision) => decision.allowed));
    const outcomes = await Promise.all([...overHttp, ...fromOtherContainer]);
    expect(outcomes.filter(Boolean)).toHaveLength(limit);
    const after = await call('/directions/v2/', { key, body: { coordinates: londonPair } });
    expect(after.status).toBe(429);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('serves a hot key: 50 requests in flight on one key, none turned away busy, the count exact', async () => {
    await awayFromWindowEdge(60, 20);
    const limit = 30;
    const key = await newKey({ name: 'hot key', plan: 'enterprise', limits: { perMinute: limit, perHour: 1000, perDay: 1000 } });
    const statuses = await Promise.all(Array.from({ length: 50 }, () => call('/directions/v2/', { key, body: { coordinates: londonPair } }).then((r) => r.status)));
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
  });

  it('counts every request in the table while the key record is cached: a warm key never passes its limit', async () => {
    await awayFromWindowEdge(60, 20);
    useLocalAws();
    const key = await newKey();
    // The first request fills the platform's cache of the key record; the rest are served from it.
    expect(admitted((await call('/directions/v2/', { key, body: { coordinates: londonPair } })).status)).toBe(true);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => call('/directions/v2/', { key, body: { coordinates: londonPair } }).then((r) => r.status)));
    expect(statuses.filter((status) => admitted(status))).toHaveLength(9);
    expect(statuses.filter((status) => status === 429)).toHaveLength(11);
    const { Item } = await dynamo().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket_id: `key:${keyIdOf(key)}` }, ConsistentRead: true }));
    const minuteCounts = Object.entries(Item!).filter(([name]) => /^m\d+$/.test(name)).map(([, count]) => count);
    expect(minuteCounts).toEqual([10]);
  });

  it('keeps a bucket small however long it lives: windows left behind are swept (controlled clock, real table)', async () => {
    useLocalAws();
    const limits = { perMinute: 5, perHour: 100, perDay: 1000 };
    const bucket = `test:${crypto.randomUUID()}`;
    const dayStart = Date.UTC(2026, 10, 21);
    // One request every seven minutes for a day: every minute window is left behind by a gap.
    for (let minute = 0; minute < 24 * 60; minute += 7 * 7) {
      expect((await consumeTokens(bucket, limits, 1, () => dayStart + minute * 60_000)).allowed).toBe(true);
    }
    const { Item } = await dynamo().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket_id: bucket }, ConsistentRead: true }));
    const windows = Object.keys(Item!).filter((name) => /^[mhd]\d+$/.test(name));
    expect(windows.length).toBeLessThanOrEqual(13);
  });
});

