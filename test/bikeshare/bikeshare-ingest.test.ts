import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cities, type BikeShareSystem, type CityId } from '../../core/cities/index.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { ingestSystem, type FreshnessPolicy } from '../../functions/bikeshare/ingest.ts';
import { readSnapshot, writeSnapshot } from '../../functions/bikeshare/store.ts';
import type { FeedSource } from '../../platform/bike-share-feeds.ts';
import type { BikeShareSnapshot } from '../../functions/bikeshare/model.ts';
import { citySystemFixtures, FeedFixtureServer, referenceFixtures } from '../../lib/local/gbfs-fixtures.ts';
import { startLocalPlatform, type LocalPlatform } from '../../lib/local/launch.ts';

/**
 * The ingestion end to end on this machine: the recorded feeds served over HTTP by the fixture
 * server, discovery, the checks, and snapshots written to and read from S3 (s3rver). Times are
 * explicit: each run's clock is set relative to the recording's own `last_updated`.
 */

const live: FreshnessPolicy = { maxStatusLagSeconds: 600 };
const replay: FreshnessPolicy = { maxStatusLagSeconds: null };

// Recorded times (SOURCES.md; the files' own last_updated).
const CITI_STATUS = 1727895686;
const CITI_INFORMATION = 1727895805;
const BAY_STATUS = 1689793616;
const DIVVY = 1738144060;
const ALMERE_VEHICLES = Date.UTC(2025, 4, 21, 7, 48, 4) / 1000;

describe('bike-share ingestion over HTTP into S3', () => {
  let platform: LocalPlatform;
  const fixtures = new FeedFixtureServer(sharedDataPath(), { ...citySystemFixtures, ...referenceFixtures });

  beforeAll(async () => {
    platform = await startLocalPlatform({
      stateDir: await mkdtemp(join(tmpdir(), 'spoke-bikeshare-')),
      ports: { base: 0, app: 0, dynamodb: 0, s3: 0, sqs: 0, idp: 0 },
      bikeShare: false,
      log: () => {},
    });
    await fixtures.start();
  });
  afterAll(async () => {
    await fixtures.stop();
    await platform.stop();
  });
  afterEach(() => fixtures.clearOverrides());

  const target = (city: CityId, id: string, system?: Partial<BikeShareSystem>) => ({
    city,
    system: { ...(cities[city].bikeShare.find((candidate) => candidate.id === id) ?? cities[city].bikeShare[0]!), id, ...system },
  });
  const gbfs = (set: string, url = fixtures.entryUrl(set)): FeedSource => ({ adapter: 'gbfs', url });
  const stored = async (systemId: string): Promise<BikeShareSnapshot> => {
    const read = await readSnapshot(systemId);
    if (!read || read === 'unchanged') throw new Error(`no snapshot for ${systemId}`);
    return read.snapshot;
  };
  /** The recorded document with changes, served in its place. */
  const edited = async (file: string, change: (document: any) => void) => {
    const document = JSON.parse(new TextDecoder().decode(await fixtures.recorded(file)));
    change(document);
    return JSON.stringify(document);
  };
  const citiStatusFile = citySystemFixtures['citi-bike']!.kind === 'gbfs' ? citySystemFixtures['citi-bike']!.feeds.station_status! : '';
  const citiStatusPath = () => fixtures.feedPath('citi-bike', 'station_status');

  describe('Citi Bike (GBFS 1.1)', () => {
    const citi = target('new-york', 'citi-bike');

    it('discovers the feeds, reads them and stores a snapshot', async () => {
      const outcome = await ingestSystem(citi, gbfs('citi-bike'), { now: CITI_INFORMATION + 10, policy: live });
      expect(outcome).toMatchObject({ written: true, refused: [], stations: 2226 });
      expect(outcome.accepted.sort()).toEqual(['station_information', 'station_status']);
      const snapshot = await stored('citi-bike');
      expect(snapshot).toMatchObject({ system_id: 'citi-bike', city: 'new-york', brand: 'Citi Bike', provider: 'Lyft', api_type: 'gbfs', written_at: CITI_INFORMATION + 10 });
      expect(snapshot.feeds.station_status).toMatchObject({ last_updated: CITI_STATUS, ttl: 60, version: '1.1' });
      expect(snapshot.stations.reduce((sum, station) => sum + station.num_bikes_available, 0)).toBe(34_155);
    });

    it('honours ttl: a feed is not asked for again before its last_updated + ttl', async () => {
      const before = fixtures.requests.get(citiStatusPath()) ?? 0;
      const early = await ingestSystem(citi, gbfs('citi-bike'), { now: CITI_STATUS + 59, policy: live });
      expect(early.not_due).toContain('station_status');
      expect(early.written).toBe(false);
      expect(fixtures.requests.get(citiStatusPath()) ?? 0).toBe(before);
      const due = await ingestSystem(citi, gbfs('citi-bike'), { now: CITI_INFORMATION + 61, policy: live });
      expect(fixtures.requests.get(citiStatusPath())).toBe(before + 1);
      // The same recording again: unchanged, nothing rewritten.
      expect(due).toMatchObject({ written: false, refused: [] });
      expect(due.unchanged).toContain('station_status');
    });

    it('keeps the last good snapshot when station_status arrives truncated', async () => {
      const good = await stored('citi-bike');
      const bytes = await fixtures.recorded(citiStatusFile);
      fixtures.override(citiStatusPath(), { body: bytes.slice(0, Math.floor(bytes.length / 2)) });
      const outcome = await ingestSystem(citi, gbfs('citi-bike'), { now: CITI_INFORMATION + 120, policy: live });
      expect(outcome.refused).toEqual([expect.objectContaining({ feed: 'station_status', kind: 'broken', reason: expect.stringMatching(/not valid JSON/) })]);
      expect(await stored('citi-bike')).toEqual(good);
    });

    it('keeps the last good snapshot when a newer station_status lists only half the stations', async () => {
      const good = await stored('citi-bike');
      const half = await edited(citiStatusFile, (document) => {
        document.last_updated = CITI_STATUS + 120;
        document.data.stations = document.data.stations.slice(0, 1113);
      });
      fixtures.override(citiStatusPath(), { body: half });
      const outcome = await ingestSystem(citi, gbfs('citi-bike'), { now: CITI_STATUS + 130, policy: live });
      expect(outcome.refused).toEqual([expect.objectContaining({ feed: 'station_status', kind: 'partial', reason: expect.stringMatching(/1113 of 2226 stations have no status/) })]);
      expect(await stored('citi-bike')).toEqual(good);
    });

    it('keeps the last good snapshot when station_status goes back in time', async () => {
      const good = await stored('citi-bike');
      fixtures.override(citiStatusPath(), { body: await edited(citiStatusFile, (document) => (document.last_updated = CITI_STATUS - 3600)) });
      const outcome = await ingestSystem(citi, gbfs('citi-bike'), { now: CITI_STATUS + 130, policy: live });
      expect(outcome.refused).toEqual([expect.objectContaining({ feed: 'station_status', kind: 'stale', reason: expect.stringMatching(/older than the stored/) })]);
      expect(await stored('citi-bike')).toEqual(good);
    });

    it('keeps the last good snapshot when the feed answers an error', async () => {
      const good = await stored('citi-bike');
      fixtures.override(citiStatusPath(), { status: 503, body: '{"error":"maintenance"}' });
      const outcome = await ingestSystem(citi, gbfs('citi-bike'), { now: CITI_INFORMATION + 200, policy: live });
      expect(outcome.refused).toEqual([expect.objectContaining({ feed: 'station_status', kind: 'broken', reason: expect.stringMatching(/HTTP 503/) })]);
      expect(await stored('citi-bike')).toEqual(good);
    });

    it('replaces the snapshot with a newer complete status', async () => {
      const newer = await edited(citiStatusFile, (document) => {
        document.last_updated = CITI_STATUS + 300;
        document.data.stations[0].num_bikes_available = 0;
        document.data.stations[0].is_renting = 0;
      });
      fixtures.override(citiStatusPath(), { body: newer });
      const outcome = await ingestSystem(citi, gbfs('citi-bike'), { now: CITI_STATUS + 310, policy: live });
      expect(outcome).toMatchObject({ written: true, accepted: ['station_status'], refused: [] });
      const snapshot = await stored('citi-bike');
      expect(snapshot.feeds.station_status!.last_updated).toBe(CITI_STATUS + 300);
      const first = JSON.parse(newer).data.stations[0].station_id;
      expect(snapshot.stations.find((station) => station.station_id === first)).toMatchObject({ num_bikes_available: 0, is_renting: false });
    });
  });

  describe('Bay Wheels (recorded 1.x discovery, 2023 stations, 2020 free-floating e-bikes)', () => {
    const bay = target('sf-bay', 'bay-wheels');

    it('refuses recordings overdue against the live clock, and nothing about stations is stored', async () => {
      const outcome = await ingestSystem(bay, gbfs('bay-wheels'), { now: BAY_STATUS + 86_400, policy: live });
      const kinds = Object.fromEntries(outcome.refused.map((refusal) => [refusal.feed, refusal.kind]));
      expect(kinds).toMatchObject({ station_status: 'stale', vehicle_status: 'stale' });
      const snapshot = await stored('bay-wheels');
      expect(snapshot.stations).toEqual([]);
      expect(snapshot.vehicles).toEqual([]);
      expect(snapshot.system?.name).toBe('Bay Wheels');
    });

    it('replays them relative to their own time: 518 stations and 878 e-bikes', async () => {
      const outcome = await ingestSystem(bay, gbfs('bay-wheels'), { now: BAY_STATUS + 86_400, policy: replay });
      expect(outcome.refused).toEqual([]);
      const snapshot = await stored('bay-wheels');
      expect(snapshot.stations).toHaveLength(518);
      expect(snapshot.vehicles).toHaveLength(878);
      expect(snapshot.vehicles.every((vehicle) => vehicle.vehicle_type === 'electric_bike')).toBe(true);
      expect(snapshot.feeds.vehicle_status).toMatchObject({ last_updated: Date.UTC(2020, 4, 22, 19, 58, 35) / 1000, ttl: 300 });
      // Feeds the recorded discovery lists but the recording lacks are simply absent.
      expect(snapshot.geofencing).toBeNull();
      expect(snapshot.pricing_plans).toEqual([]);
    });
  });

  describe('GBFS 2.3 and 3.0 reference sets', () => {
    it('ingests the complete Divvy 2.3 set through its recorded gbfs.json', async () => {
      const divvy = target('new-york', 'divvy-reference', { name: 'Divvy' });
      const outcome = await ingestSystem(divvy, gbfs('divvy-2.3'), { now: DIVVY + 30, policy: live });
      expect(outcome.refused).toEqual([]);
      expect(outcome.accepted.sort()).toEqual(['station_information', 'station_status', 'system_information', 'system_pricing_plans', 'vehicle_status', 'vehicle_types']);
      const snapshot = await stored('divvy-reference');
      expect(snapshot.discovery).toMatchObject({ version: '2.3', ttl: 60 });
      expect(snapshot.stations).toHaveLength(1811);
      expect(snapshot.vehicles).toHaveLength(1244);
      expect(snapshot.vehicle_types).toHaveLength(3);
      expect(snapshot.pricing_plans.map((plan) => plan.plan_id)).toContain('BIKE_SINGLE_RIDE');
      expect(snapshot.feeds.vehicle_status).toMatchObject({ version: '2.3', last_updated: 1738144059 });
    });

    it('ingests the Check 3.0 set: vehicle_status, RFC 3339 times, geofencing with 3.x rules, ttl per feed', async () => {
      const check = target('london', 'check-reference', { name: 'Check', operator: 'Check Technologies' });
      const first = await ingestSystem(check, gbfs('almere-3.0'), { now: ALMERE_VEHICLES + 60, policy: live });
      expect(first.refused).toEqual([]);
      const snapshot = await stored('check-reference');
      expect(snapshot.vehicles).toHaveLength(6);
      expect(snapshot.geofencing).toMatchObject({ gbfs_version: '3.0', semantics: 'gbfs-3' });
      expect(snapshot.geofencing!.zones).toHaveLength(14);
      expect(snapshot.feeds.geofencing_zones).toMatchObject({ last_updated: Date.UTC(2025, 4, 21, 7, 55, 15) / 1000, ttl: 3600 });
      // 10 minutes on, vehicle_status (ttl 600) is due again; geofencing (ttl 3600) is not.
      const later = await ingestSystem(check, gbfs('almere-3.0'), { now: ALMERE_VEHICLES + 601, policy: live });
      expect(later.not_due).toContain('geofencing_zones');
      expect(later.unchanged).toContain('vehicle_status');
    });

    it('finds the 3.0 discovery document through a manifest.json', async () => {
      fixtures.override('/almere-3.0/manifest.json', {
        body: JSON.stringify({
          last_updated: '2025-05-21T07:47:43+00:00',
          ttl: 3600,
          version: '3.0',
          data: { datasets: [{ system_id: 'check_almere', versions: [{ version: '3.0', url: fixtures.entryUrl('almere-3.0') }] }] },
        }),
      });
      const check = target('london', 'check-manifest', { name: 'Check', operator: 'Check Technologies' });
      const outcome = await ingestSystem(check, { adapter: 'gbfs', url: `${fixtures.url}/almere-3.0/manifest.json`, gbfsSystemId: 'check_almere' }, { now: ALMERE_VEHICLES + 60, policy: live });
      expect(outcome.refused).toEqual([]);
      expect((await stored('check-manifest')).vehicles).toHaveLength(6);
    });
  });

  describe('Santander Cycles (TfL BikePoint through the adapter)', () => {
    const santander = target('london', 'santander-cycles');
    const source = (): FeedSource => ({ adapter: 'tfl-bikepoint', url: fixtures.entryUrl('santander-cycles') });
    const NEWEST = Math.floor(Date.parse('2026-02-22T16:53:19.513Z') / 1000);

    it('stores the 800 docking stations, and keeps them when BikePoint breaks', async () => {
      const outcome = await ingestSystem(santander, source(), { now: NEWEST + 30, policy: live });
      expect(outcome).toMatchObject({ written: true, refused: [], stations: 800 });
      const good = await stored('santander-cycles');
      expect(good).toMatchObject({ api_type: 'tfl_bikepoint', brand: 'Santander Cycles', provider: 'Transport for London' });
      fixtures.override('/santander-cycles/BikePoint', { body: '[{"$type":"Tfl.Api.Presentation.Entities.Place"' });
      const broken = await ingestSystem(santander, source(), { now: NEWEST + 90, policy: live });
      expect(broken.refused).toEqual([expect.objectContaining({ kind: 'broken' })]);
      expect(await stored('santander-cycles')).toEqual(good);
    });
  });

  describe('overlapping runs of one city (no reserved concurrency)', () => {
    const system = target('new-york', 'citi-bike-overlap');

    it('never replaces a snapshot with one a run that started earlier made', async () => {
      const later = await ingestSystem(system, gbfs('citi-bike'), { now: CITI_INFORMATION + 120, policy: live });
      expect(later.written).toBe(true);
      const newer = await stored('citi-bike-overlap');
      // The run that started a minute earlier finishes last, with fewer bikes docked.
      const older: BikeShareSnapshot = { ...newer, written_at: CITI_INFORMATION + 60, stations: newer.stations.slice(0, 10) };
      expect(await writeSnapshot(older)).toBe('superseded');
      expect(await stored('citi-bike-overlap')).toEqual(newer);
      // A later run's snapshot still replaces it.
      expect(await writeSnapshot({ ...older, written_at: CITI_INFORMATION + 180 })).toBe('written');
      expect(await stored('citi-bike-overlap')).toMatchObject({ written_at: CITI_INFORMATION + 180, stations: older.stations });
    });
  });
});
