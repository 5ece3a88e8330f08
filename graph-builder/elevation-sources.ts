import { readFile } from 'node:fs/promises';
import { fromArrayBuffer } from 'geotiff';

/**
 * Elevation sources, best first: a DEM covering the point, else OSM `ele` (only when most graph
 * nodes carry it, since a handful of tagged nodes among flat ones would invent cliffs), else flat.
 */

export interface Dem {
  /** Metres at a point, bilinear between cell centres; NaN outside the raster or on no-data cells. */
  sample(lonDegrees: number, latDegrees: number): number;
  readonly bbox: readonly [number, number, number, number];
}

/** Opens a single-band GeoTIFF in EPSG:4326 (degrees) with values in metres. */
export async function loadDem(path: string): Promise<Dem> {
  const bytes = await readFile(path);
  const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const image = await tiff.getImage();
  const width = image.getWidth();
  const height = image.getHeight();
  const [originLon, originLat] = image.getOrigin() as [number, number];
  const [resolutionLon, resolutionLat] = image.getResolution() as [number, number];
  const noData = image.getGDALNoData();
  const [band] = (await image.readRasters({ samples: [0] })) as unknown as [ArrayLike<number>];
  const cell = (column: number, row: number): number => {
    const value = band[row * width + column]!;
    return value === noData || value < -1000 ? NaN : value;
  };
  const [minLon, minLat, maxLon, maxLat] = image.getBoundingBox() as [number, number, number, number];
  return {
    bbox: [minLon, minLat, maxLon, maxLat],
    sample(lon: number, lat: number): number {
      // Pixel coordinates of the point relative to cell centres (resolutionLat is negative).
      const x = (lon - originLon) / resolutionLon - 0.5;
      const y = (lat - originLat) / resolutionLat - 0.5;
      if (x < -0.5 || y < -0.5 || x > width - 0.5 || y > height - 0.5) return NaN;
      const x0 = Math.max(0, Math.min(width - 2, Math.floor(x)));
      const y0 = Math.max(0, Math.min(height - 2, Math.floor(y)));
      const fx = Math.max(0, Math.min(1, x - x0));
      const fy = Math.max(0, Math.min(1, y - y0));
      const top = cell(x0, y0) * (1 - fx) + cell(x0 + 1, y0) * fx;
      const bottom = cell(x0, y0 + 1) * (1 - fx) + cell(x0 + 1, y0 + 1) * fx;
      return top * (1 - fy) + bottom * fy;
    },
  };
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
