import type { LonLat } from '../../core/geo.ts';
import { bayDataset } from '../../functions/multimodal/parking/datasets.ts';
import type { SpotDataset } from '../../functions/multimodal/parking/spots.ts';

/**
 * Hand-made designated e-bike bays on real London streets of the loaded extracts (the shared data
 * holds no file of bay locations), each in a known borough, and destinations beside them.
 */

export const PLACES = {
  /** Russell Square, Camden: bays mandatory, Lime and Forest. */
  camden: [-0.1263, 51.522] as LonLat,
  /** Princess Street near St George's Circus, Southwark: no mandate of record, Lime only. */
  southwark: [-0.1, 51.4975] as LonLat,
  /** Lambeth Road near St George's Circus, Southwark. */
  southwarkStart: [-0.1053, 51.4983] as LonLat,
  /** Trott Road, Friern Barnet, Barnet: no source, no operator of record. */
  barnet: [-0.155, 51.605] as LonLat,
};

export function handMadeBays(): SpotDataset {
  const bay = (id: string, at: LonLat, operators?: string[]) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: at }, properties: { id, ...(operators ? { operators } : {}) } });
  return bayDataset(
    'london',
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        bay('camden-1', [-0.1258, 51.5225], ['lime', 'forest']),
        bay('camden-lime', [-0.1275, 51.5213], ['lime']),
        bay('southwark-1', [-0.0995, 51.4978]),
        // Barkham Terrace, Lambeth (Lime and Forest).
        bay('lambeth-1', [-0.1115, 51.499], ['lime', 'forest']),
        // Harcourt Road, Bounds Green, Haringey (Lime).
        bay('haringey-1', [-0.13, 51.6], ['lime']),
      ],
    }),
    { name: 'hand-made test bays', licence: 'test', attribution: 'test' },
  );
}
