import { describe, expect, it } from 'vitest';
import { boundingBox, emptyBoundingBox, extendBoundingBox, haversineMetres, haversineMetresE7 } from '../../core/geo.ts';
import { cities } from '../../core/cities/cities.ts';

describe('great-circle distance', () => {
  it('is a degree of latitude for a degree of latitude', () => {
    expect(haversineMetres(-0.1, 51, -0.1, 52)).toBeCloseTo(111_195.08, 1);
    expect(haversineMetresE7(-1_000_000, 510_000_000, -1_000_000, 520_000_000)).toBeCloseTo(111_195.08, 1);
  });

  it('agrees between degrees and 1e-7 degrees to far below a millimetre', () => {
    const pairs: [number, number, number, number][] = [
      [-1_337_123, 515_246_456, -1_246_789, 515_219_012],
      [-739_876_543, 407_512_345, -739_872_222, 407_518_888],
      [-1_224_476_999, 377_544_001, -1_224_350_000, 377_609_000],
    ];
    for (const [lon1, lat1, lon2, lat2] of pairs) {
      const fromDegrees = haversineMetres(lon1 / 1e7, lat1 / 1e7, lon2 / 1e7, lat2 / 1e7);
      expect(Math.abs(haversineMetresE7(lon1, lat1, lon2, lat2) - fromDegrees)).toBeLessThan(1e-6);
    }
  });
});

describe('bounding box', () => {
  it('holds every point of a city outline, touching it on all four sides', () => {
    const outline = cities.london.boundary;
    const [west, south, east, north] = boundingBox(outline);
    for (const [lon, lat] of outline) {
      expect(lon).toBeGreaterThanOrEqual(west);
      expect(lon).toBeLessThanOrEqual(east);
      expect(lat).toBeGreaterThanOrEqual(south);
      expect(lat).toBeLessThanOrEqual(north);
    }
    expect(outline.some(([lon]) => lon === west) && outline.some(([lon]) => lon === east)).toBe(true);
    expect(outline.some(([, lat]) => lat === south) && outline.some(([, lat]) => lat === north)).toBe(true);
  });

  it('grows point by point in any unit, and holds nothing while empty', () => {
    const box = emptyBoundingBox();
    expect(box[0] > box[2] && box[1] > box[3]).toBe(true);
    extendBoundingBox(box, -1_337_000, 515_246_000);
    extendBoundingBox(box, -1_246_000, 515_219_000);
    expect(box).toEqual([-1_337_000, 515_219_000, -1_246_000, 515_246_000]);
  });
});
