/**
 * Bike-share reader benchmark: `npx tsx test/bench/bikeshare.ts`. Prints, for the recorded Citi
 * Bike snapshot and for a city ten times its size, the snapshot's size, the time from stored
 * bytes to a searchable system (gunzip, JSON.parse, kd-trees), and the time of a
 * `/bikes/nearby/` search (radius 1,000 m, limit 200) with the kd-tree against a plain scan of
 * every station. The figures are recorded in docs/benchmarks.md and docs/bikeshare.md.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { haversineMetres } from '../../core/geo.ts';
import { BikeShareView, LoadedSystem } from '../../functions/bikeshare/loader.ts';
import { isOperationalStation, type BikeShareSnapshot } from '../../functions/bikeshare/model.ts';
import { bikesNearby } from '../../functions/bikeshare/nearby.ts';
import { recordedSnapshot } from '../support/bikeshare.ts';
import { seededRandom } from '../routing/real-graphs.ts';
import { percentile } from './measure.ts';

const QUERIES = 2000;
const RADIUS = 1000;
const LIMIT = 200;

/** Ten jittered copies of every station: a system the size of a large city's docked and dockless fleet. */
function scaled(snapshot: BikeShareSnapshot, copies: number): BikeShareSnapshot {
  const random = seededRandom(11);
  const stations = Array.from({ length: copies }, (_, copy) =>
    snapshot.stations.map((station) => ({
      ...station,
      station_id: `${station.station_id}-${copy}`,
      lat: station.lat + (random() - 0.5) * 0.004,
      lon: station.lon + (random() - 0.5) * 0.004,
    })),
  ).flat();
  return { ...snapshot, stations };
}

/** What a search would be without the tree: every station measured, filtered and sorted. */
function linearScan(snapshot: BikeShareSnapshot, lon: number, lat: number): number {
  const found: { distance: number }[] = [];
  for (const station of snapshot.stations) {
    if (!isOperationalStation(station)) continue;
    const distance = haversineMetres(lon, lat, station.lon, station.lat);
    if (distance <= RADIUS) found.push({ distance });
  }
  found.sort((a, b) => a.distance - b.distance);
  return found.slice(0, LIMIT).length;
}

function microseconds(work: (lon: number, lat: number) => unknown, points: [number, number][]): { p50: number; p95: number } {
  const times: number[] = [];
  for (const [lon, lat] of points) {
    const started = performance.now();
    work(lon, lat);
    times.push((performance.now() - started) * 1000);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

function measure(label: string, snapshot: BikeShareSnapshot): string {
  const json = JSON.stringify(snapshot);
  const gzipped = gzipSync(json);
  const loads: number[] = [];
  let system: LoadedSystem | undefined;
  for (let i = 0; i < 15; i++) {
    const started = performance.now();
    system = new LoadedSystem(JSON.parse(gunzipSync(gzipped).toString('utf8')) as BikeShareSnapshot);
    loads.push(performance.now() - started);
  }
  const view = new BikeShareView([system!]);
  const random = seededRandom(5);
  // Points over the stations' own extent (Manhattan, Brooklyn, Queens, the Bronx).
  const lats = snapshot.stations.map((station) => station.lat);
  const lons = snapshot.stations.map((station) => station.lon);
  const [south, north, west, east] = [Math.min(...lats), Math.max(...lats), Math.min(...lons), Math.max(...lons)];
  const points = Array.from({ length: QUERIES }, () => [west + random() * (east - west), south + random() * (north - south)] as [number, number]);
  // Warm both paths before timing.
  for (const [lon, lat] of points.slice(0, 200)) {
    bikesNearby(view, { latitude: lat, longitude: lon, radius: RADIUS, limit: LIMIT });
    linearScan(snapshot, lon, lat);
  }
  const tree = microseconds((lon: number, lat: number) => bikesNearby(view, { latitude: lat, longitude: lon, radius: RADIUS, limit: LIMIT }), points);
  const scan = microseconds((lon: number, lat: number) => linearScan(snapshot, lon, lat), points);
  const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} KiB`;
  return `| ${label} | ${snapshot.stations.length.toLocaleString('en')} | ${kb(json.length)} / ${kb(gzipped.length)} | ${percentile(loads, 50).toFixed(1)} ms | ${tree.p50.toFixed(0)} / ${tree.p95.toFixed(0)} µs | ${scan.p50.toFixed(0)} / ${scan.p95.toFixed(0)} µs |`;
}

const citi = recordedSnapshot('citi-bike');
console.log('| System | Stations | Snapshot JSON / gzipped | Bytes to searchable (p50) | Nearby with kd-tree p50 / p95 | Plain scan p50 / p95 |');
console.log('|---|---|---|---|---|---|');
console.log(measure('Citi Bike (recorded 2024-10-02)', citi));
console.log(measure('Citi Bike x10 (jittered copies)', scaled(citi, 10)));
