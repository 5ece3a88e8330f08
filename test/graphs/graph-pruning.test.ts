import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentPointerKey, graphKey, type CurrentGraphPointer } from '../../core/graph/catalog.ts';
import { s3 } from '../../platform/aws.ts';
import { bucketName } from '../../platform/resources.ts';
import {
  GRAPH_VERSIONS_KEPT, graphFilesToPrune, publishedGraphFiles, publishedPointer, publishGraph, pruneGraphVersions,
} from '../../graph-builder/publish.ts';
import { startLocalPlatform, type LocalPlatform } from '../../lib/local/launch.ts';

/**
 * Old graph versions pruned after a publish (graph-builder/publish.ts), against the local
 * platform's s3rver: what the nightly build leaves in the graphs bucket after several changed
 * nights. The graph bytes are stand-ins; pruning never reads them.
 */

const CITY = 'los-angeles';
/** Version names as the builder forms them: city, build start, source hash. */
const version = (night: number) => `${CITY}-202611${String(night).padStart(2, '0')}T030000-0000000${night}`;
const pointerOf = (night: number): CurrentGraphPointer => ({
  graph_version: version(night),
  key: graphKey(CITY, version(night)),
  built_at: `2026-11-${String(night).padStart(2, '0')}T03:00:00.000Z`,
  source_hash: `hash-${night}`,
});
const storedGraphKeys = async (): Promise<string[]> => (await publishedGraphFiles(bucketName('graphs'), CITY)).map((file) => file.key).sort();
const keysOfNights = (...nights: number[]): string[] => nights.map((night) => graphKey(CITY, version(night))).sort();

describe('graph versions kept per city', () => {
  let platform: LocalPlatform;

  beforeAll(async () => {
    platform = await startLocalPlatform({
      stateDir: await mkdtemp(join(tmpdir(), 'spoke-graph-pruning-')),
      ports: { base: 0, app: 0, dynamodb: 0, s3: 0, sqs: 0, idp: 0 },
      bikeShare: false,
      log: () => {},
    });
  });
  afterAll(async () => {
    await platform.stop();
  });

  it(`keeps the newest ${GRAPH_VERSIONS_KEPT} after each of five changed nights, the current one among them`, async () => {
    const bucket = bucketName('graphs');
    for (let night = 1; night <= 5; night += 1) {
      await publishGraph(bucket, CITY, pointerOf(night), new Uint8Array([night]));
      const deleted = await pruneGraphVersions(bucket, CITY);
      expect(deleted).toEqual(night > GRAPH_VERSIONS_KEPT ? keysOfNights(night - GRAPH_VERSIONS_KEPT) : []);
    }
    expect(await storedGraphKeys()).toEqual(keysOfNights(3, 4, 5));
    expect((await publishedPointer(bucket, CITY))!.graph_version).toBe(version(5));
  });

  it('never deletes the version the pointer names, even when an operator pointed it back at the oldest', async () => {
    const bucket = bucketName('graphs');
    await s3().send(new PutObjectCommand({ Bucket: bucket, Key: currentPointerKey(CITY), Body: JSON.stringify(pointerOf(3)) }));
    expect(await pruneGraphVersions(bucket, CITY, 1)).toEqual(keysOfNights(4));
    expect(await storedGraphKeys()).toEqual(keysOfNights(3, 5));
  });

  it('keeps a graph uploaded by a build whose pointer is not written yet', async () => {
    const bucket = bucketName('graphs');
    // A concurrent build has uploaded night 6's graph and not yet moved the pointer (still night 3).
    await s3().send(new PutObjectCommand({ Bucket: bucket, Key: graphKey(CITY, version(6)), Body: new Uint8Array([6]) }));
    await pruneGraphVersions(bucket, CITY, 1);
    expect(await storedGraphKeys()).toEqual(keysOfNights(3, 6));
  });
});

describe('which graph files are pruned', () => {
  const at = (iso: string) => new Date(iso);

  it('orders by publish time, not by name: a build that started first but published last is the newest', () => {
    const files = [
      { key: 'a-started-first-published-last', publishedAt: at('2026-11-21T03:20:00Z') },
      { key: 'b', publishedAt: at('2026-11-21T03:10:00Z') },
      { key: 'c', publishedAt: at('2026-11-20T03:10:00Z') },
      { key: 'd', publishedAt: at('2026-11-19T03:10:00Z') },
    ];
    expect(graphFilesToPrune(files, 'a-started-first-published-last', 2)).toEqual(['c', 'd']);
  });

  it('keeps the pointer\'s file whatever its age, and breaks ties of the same second by the later name', () => {
    const second = at('2026-11-21T03:00:00Z');
    const files = [
      { key: 'v1', publishedAt: second },
      { key: 'v3', publishedAt: second },
      { key: 'v2', publishedAt: second },
      { key: 'v0', publishedAt: at('2026-11-01T03:00:00Z') },
    ];
    expect(graphFilesToPrune(files, 'v0', 2)).toEqual(['v1']);
    expect(graphFilesToPrune(files, null, 3)).toEqual(['v0']);
    expect(graphFilesToPrune([], null)).toEqual([]);
  });
});
