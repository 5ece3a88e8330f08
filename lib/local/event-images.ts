import sharp from 'sharp';
import type { CityId } from '../../core/cities/index.ts';
import { LocalProjection, type LonLat } from '../../core/geo.ts';
import { COORDINATE_SCALE } from '../../core/graph/layout.ts';
import { cityGraph } from '../../functions/graphs/graph-store.ts';

/**
 * Cover images for the seeded events: a map drawn from the city's routing graph (every road in
 * view), the event's route on top and its destination as a pin, rendered to PNG. Made from the
 * same OpenStreetMap data the routes are planned on, so the demo needs no tiles or downloads.
 */

const WIDTH = 800;
const HEIGHT = 450;
const MIN_SPAN_METRES = 900;

export async function renderEventImage(city: CityId, route: readonly LonLat[] | null, destination: LonLat): Promise<Buffer> {
  const graph = (await cityGraph(city)).network.graph;
  const points = [...(route ?? []), destination];
  const projection = new LocalProjection(destination[1]);
  const xs = points.map(([lon]) => projection.x(lon));
  const ys = points.map(([, lat]) => projection.y(lat));
  const centreX = (Math.min(...xs) + Math.max(...xs)) / 2;
  const centreY = (Math.min(...ys) + Math.max(...ys)) / 2;
  // Metres per pixel: the whole route with a margin, at least MIN_SPAN_METRES across.
  const span = Math.max(MIN_SPAN_METRES, (Math.max(...xs) - Math.min(...xs)) * 1.25, ((Math.max(...ys) - Math.min(...ys)) * 1.25 * WIDTH) / HEIGHT);
  const scale = WIDTH / span;
  const px = (lon: number) => ((projection.x(lon) - centreX) * scale + WIDTH / 2).toFixed(1);
  const py = (lat: number) => (HEIGHT / 2 - (projection.y(lat) - centreY) * scale).toFixed(1);
  const halfLon = span / 2 / projection.metresPerDegreeLon;
  const halfLat = (span * HEIGHT) / WIDTH / 2 / projection.metresPerDegreeLat;
  const centreLon = centreX / projection.metresPerDegreeLon;
  const centreLat = centreY / projection.metresPerDegreeLat;
  const inView = (lon: number, lat: number) => Math.abs(lon - centreLon) < halfLon * 1.2 && Math.abs(lat - centreLat) < halfLat * 1.2;

  const roads: string[] = [];
  for (let segment = 0; segment < graph.segmentCount; segment++) {
    const first = graph.segmentFirstPoint[segment]!;
    const end = graph.segmentFirstPoint[segment + 1]!;
    let path = '';
    let visible = false;
    for (let point = first; point < end; point++) {
      const lon = graph.pointCoords[2 * point]! / COORDINATE_SCALE;
      const lat = graph.pointCoords[2 * point + 1]! / COORDINATE_SCALE;
      visible ||= inView(lon, lat);
      path += `${point === first ? 'M' : 'L'}${px(lon)} ${py(lat)}`;
    }
    if (visible) roads.push(path);
  }
  const line = route?.map(([lon, lat], index) => `${index === 0 ? 'M' : 'L'}${px(lon)} ${py(lat)}`).join('') ?? '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <rect width="100%" height="100%" fill="#f3efe6"/>
  <path d="${roads.join('')}" fill="none" stroke="#c8c1b2" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>
  ${line ? `<path d="${line}" fill="none" stroke="#ffffff" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/><path d="${line}" fill="none" stroke="#1f7a4d" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>` : ''}
  <circle cx="${px(destination[0])}" cy="${py(destination[1])}" r="11" fill="#d9482b" stroke="#ffffff" stroke-width="4"/>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}
