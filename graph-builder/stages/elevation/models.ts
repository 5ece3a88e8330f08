import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fromArrayBuffer } from 'geotiff';

/**
 * Elevation models a city's build reads (graph-builder/city-recipes.ts lists them per city, best
 * first), and OSM `ele`, the fallback where no model covers a node and most nodes carry one.
 *
 * Two formats: SRTM `.hgt` tiles (big-endian int16, 1201 or 3601 rows of as many samples, row 0
 * the north edge, the tile named after its south-west corner, voids -32768) and single-band
 * GeoTIFFs in EPSG:4326 with heights in metres (the `geotiff` package; pixel-is-area or
 * pixel-is-point). Voids are filled from their neighbours when the model is loaded; a point is
 * sampled bilinearly between the four samples around it.
 */

export interface ElevationModel {
  /** The file's folder and name, as the build report names it. */
  readonly name: string;
  /** [west, south, east, north] of the samples, degrees. */
  readonly bbox: readonly [number, number, number, number];
  /** North-south spacing of the samples in metres: how fine a detail the model can show. */
  readonly sampleMetres: number;
  /** How far either side of a point a way's profile is averaged (stages/elevation.ts): 0 for a terrain model. */
  readonly smoothingMetres: number;
  /** Metres at a point, bilinear between the four samples around it; NaN outside the model. */
  sample(lonDegrees: number, latDegrees: number): number;
}

/** SRTM's marker of a sample without a value. */
export const SRTM_VOID = -32768;
/** Voids further than this many samples from any value stay unknown (the edge of a model's coverage). */
export const MAX_VOID_FILL_SAMPLES = 12;
const METRES_PER_DEGREE_LATITUDE = 111_195;
/**
 * A surface model read as the ground (GridModel.asGround): each sample averaged with those this
 * many places around it (5 by 5, about 460 m across at 3″: a city block's roofs with the streets
 * around them), and profiles along ways averaged over this many sample lengths either side (their
 * effect on route climbs: docs/benchmarks.md, "Elevation and the hill preference").
 */
export const SURFACE_BLUR_SAMPLES = 2;
export const SURFACE_SMOOTHING_SAMPLES = 1;

/**
 * Samples on a regular grid of longitude and latitude. Sample (row, column) stands at
 * `west + column * stepLon`, `north - row * stepLat`; NaN marks a sample without a value.
 */
export class GridModel implements ElevationModel {
  readonly bbox: readonly [number, number, number, number];
  readonly sampleMetres: number;

  constructor(
    readonly name: string,
    private readonly values: Float32Array,
    private readonly columns: number,
    private readonly rows: number,
    private readonly west: number,
    private readonly north: number,
    private readonly stepLon: number,
    private readonly stepLat: number,
    readonly smoothingMetres = 0,
  ) {
    this.bbox = [west, north - (rows - 1) * stepLat, west + (columns - 1) * stepLon, north];
    this.sampleMetres = stepLat * METRES_PER_DEGREE_LATITUDE;
  }

  /** The same grid with each sample the mean of the (2 radius + 1)² samples around it (NaN ones left out). */
  blurred(radius: number, smoothingMetres = this.smoothingMetres): GridModel {
    const { columns, rows, values } = this;
    const out = new Float32Array(values.length);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        let sum = 0;
        let count = 0;
        for (let rr = Math.max(0, r - radius); rr <= Math.min(rows - 1, r + radius); rr++) {
          for (let cc = Math.max(0, c - radius); cc <= Math.min(columns - 1, c + radius); cc++) {
            const value = values[rr * columns + cc]!;
            if (!Number.isNaN(value)) {
              sum += value;
              count++;
            }
          }
        }
        out[r * columns + c] = Number.isNaN(values[r * columns + c]!) || count === 0 ? NaN : sum / count;
      }
    }
    return new GridModel(this.name, out, columns, rows, this.west, this.north, this.stepLon, this.stepLat, smoothingMetres);
  }

  /**
   * A surface model read as the ground: the mean of the samples around each sample (roofs and
   * trees averaged with the streets around them), and profiles along ways averaged over a
   * sample's length either side.
   */
  asGround(): GridModel {
    return this.blurred(SURFACE_BLUR_SAMPLES, this.sampleMetres * SURFACE_SMOOTHING_SAMPLES);
  }

  sample(lon: number, lat: number): number {
    const x = (lon - this.west) / this.stepLon;
    const y = (this.north - lat) / this.stepLat;
    if (!(x >= 0 && y >= 0 && x <= this.columns - 1 && y <= this.rows - 1)) return NaN;
    const column = Math.min(this.columns - 2, Math.floor(x));
    const row = Math.min(this.rows - 2, Math.floor(y));
    const fx = x - column;
    const fy = y - row;
    const at = row * this.columns + column;
    const values = this.values;
    const top = values[at]! * (1 - fx) + values[at + 1]! * fx;
    const bottom = values[at + this.columns]! * (1 - fx) + values[at + this.columns + 1]! * fx;
    return top * (1 - fy) + bottom * fy;
  }
}

/**
 * Fills voids (NaN) in place from their neighbours, nearest first: each void takes the mean of
 * its eight neighbours that hold a value or were filled before it, so a void region is filled
 * from its rim inwards (as SRTM's own void-filled products and GDAL's FillNodata do). Voids more
 * than `maxDistance` samples from any value stay NaN: beyond the model's data, not a hole in it.
 * Returns the number of samples filled.
 */
export function fillVoids(values: Float32Array, columns: number, rows: number, maxDistance = MAX_VOID_FILL_SAMPLES): number {
  const distance = new Int32Array(values.length).fill(-1);
  let frontier: number[] = [];
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) distance[i] = 0;
  for (let i = 0; i < values.length; i++) {
    if (distance[i] !== -1) continue;
    const row = Math.floor(i / columns);
    const column = i % columns;
    if (neighbours(row, column, columns, rows).some((j) => distance[j] === 0)) {
      distance[i] = 1;
      frontier.push(i);
    }
  }
  let filled = 0;
  for (let step = 1; frontier.length > 0 && step <= maxDistance; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      let sum = 0;
      let count = 0;
      for (const j of neighbours(Math.floor(i / columns), i % columns, columns, rows)) {
        if (distance[j] !== -1 && distance[j]! < step) {
          sum += values[j]!;
          count++;
        } else if (distance[j] === -1) {
          distance[j] = step + 1;
          next.push(j);
        }
      }
      values[i] = sum / count;
      filled++;
    }
    frontier = next;
  }
  return filled;
}

function neighbours(row: number, column: number, columns: number, rows: number): number[] {
  const found: number[] = [];
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      const r = row + dr;
      const c = column + dc;
      if ((dr !== 0 || dc !== 0) && r >= 0 && c >= 0 && r < rows && c < columns) found.push(r * columns + c);
    }
  }
  return found;
}

const modelName = (path: string): string => path.split('/').slice(-2).join('/');

/** An SRTM `.hgt` tile: its south-west corner from its name (`N40W074.hgt`), its size from its length. */
export async function readSrtmTile(path: string): Promise<GridModel> {
  const corner = /^([NS])(\d{2})([EW])(\d{3})\.hgt$/i.exec(basename(path));
  if (!corner) throw new Error(`${path}: an SRTM tile is named after its south-west corner, like N40W074.hgt`);
  const south = Number(corner[2]) * (corner[1]!.toUpperCase() === 'S' ? -1 : 1);
  const west = Number(corner[4]) * (corner[3]!.toUpperCase() === 'W' ? -1 : 1);
  const bytes = await readFile(path);
  const size = Math.round(Math.sqrt(bytes.length / 2));
  if (size * size * 2 !== bytes.length || size < 2) throw new Error(`${path}: ${bytes.length} bytes is not a square grid of 16-bit samples`);
  const values = new Float32Array(size * size);
  for (let i = 0; i < values.length; i++) {
    const value = bytes.readInt16BE(2 * i);
    values[i] = value === SRTM_VOID ? NaN : value;
  }
  fillVoids(values, size, size);
  const step = 1 / (size - 1);
  return new GridModel(modelName(path), values, size, size, west, south + 1, step, step);
}

/** GeoTIFF's GTRasterTypeGeoKey value for pixel-is-point: the tie point is a sample, not a corner. */
const PIXEL_IS_POINT = 2;

/** A single-band GeoTIFF in EPSG:4326 with heights in metres; its no-data value marks voids. */
export async function readGeoTiffModel(path: string): Promise<GridModel> {
  const bytes = await readFile(path);
  const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const image = await tiff.getImage();
  const columns = image.getWidth();
  const rows = image.getHeight();
  const [originLon, originLat] = image.getOrigin() as [number, number];
  const [resolutionLon, resolutionLat] = image.getResolution() as [number, number];
  const noData = image.getGDALNoData();
  const [band] = (await image.readRasters({ samples: [0] })) as unknown as [ArrayLike<number>];
  const values = new Float32Array(columns * rows);
  for (let i = 0; i < values.length; i++) {
    const value = band[i]!;
    values[i] = value === noData || value < -1000 ? NaN : value;
  }
  fillVoids(values, columns, rows);
  // Pixel-is-area: the origin is the corner of the first pixel, its sample half a pixel in.
  const pointRegistered = (image.getGeoKeys() as { GTRasterTypeGeoKey?: number }).GTRasterTypeGeoKey === PIXEL_IS_POINT;
  const west = pointRegistered ? originLon : originLon + resolutionLon / 2;
  const north = pointRegistered ? originLat : originLat + resolutionLat / 2;
  return new GridModel(modelName(path), values, columns, rows, west, north, resolutionLon, -resolutionLat);
}

/**
 * An elevation model by its file's kind (`.hgt` SRTM tiles, else GeoTIFF); a surface model
 * (SRTM, Copernicus: they see roofs and trees) is smoothed into ground heights.
 */
export async function loadElevationModel(path: string, { surface }: { surface: boolean }): Promise<ElevationModel> {
  const model = await (/\.hgt$/i.test(path) ? readSrtmTile(path) : readGeoTiffModel(path));
  return surface ? model.asGround() : model;
}

/** OSM `ele` in metres (`12`, `12.5 m`, `40'`), or NaN. */
export function parseOsmElevation(value: string | undefined): number {
  if (value === undefined) return NaN;
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*(m|ft|')?\s*$/.exec(value.replace(',', '.'));
  if (!match) return NaN;
  const metres = Number(match[1]);
  return match[2] === 'ft' || match[2] === "'" ? metres * 0.3048 : metres;
}

/** Share of graph nodes that must carry `ele` before OSM elevation is used at all. */
export const OSM_ELEVATION_MIN_COVERAGE = 0.5;
