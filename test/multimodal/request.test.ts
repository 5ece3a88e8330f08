import { describe, expect, it } from 'vitest';
import { validationError } from '../../functions/http/validation.ts';
import { MAX_STOPS, multiModalCost, multiModalRequest } from '../../functions/multimodal/request.ts';

/** The request rules of POST /multi-modal/v2/ (spec 4.2): names, aliases, limits and costs. */

const start = [-0.1337, 51.5246];
const end = [-0.1246, 51.5219];
const problem = (body: unknown): string => {
  const result = multiModalRequest.safeParse(body);
  if (result.success) throw new Error(`accepted ${JSON.stringify(body)}`);
  const error = validationError(result.error, 'body');
  return error.details ?? error.message;
};

describe('multi-modal request', () => {
  it('takes the v2 names and the unversioned example\'s, with their display names', () => {
    const v2 = multiModalRequest.parse({ start, end, start_name: 'Home', end_name: 'Work' });
    const example = multiModalRequest.parse({ origin: start, destination: end, origin_name: 'Home', destination_name: 'Work' });
    expect(v2).toEqual(example);
    expect(v2).toMatchObject({ start, end, startName: 'Home', endName: 'Work', preferences: { language: 'en' }, stops: [], parkingType: null, operator: null });
    // Both names with the same value is fine; with different values it is a 400 naming both.
    expect(multiModalRequest.parse({ start, origin: start, end }).start).toEqual(start);
    expect(problem({ start, origin: end, end })).toMatch(/^start: is also given as origin with another value/);
  });

  it('requires the two end points, naming both names', () => {
    expect(problem({ end })).toMatch(/start: is required \(also accepted as origin\)/);
    expect(problem({ start })).toMatch(/end: is required \(also accepted as destination\)/);
    expect(problem({ start: [200, 51], end })).toMatch(/start\[0\]: longitude must be between -180 and 180/);
  });

  it('reads a regional language tag as its base language and refuses others', () => {
    expect(multiModalRequest.parse({ start, end, language: 'es-MX' }).preferences.language).toBe('es');
    expect(problem({ start, end, language: 'fr' })).toMatch(/language: must be en or es/);
  });

  it('refuses an unparseable departure time', () => {
    expect(problem({ start, end, departure_time: '2026-13-01T10:00' })).toMatch(/departure_time: is not a valid date and time/);
    expect(problem({ start, end, departure_time: '2026-06-01T10:00Z' })).toMatch(/departure_time: must be YYYY-MM-DDTHH:mm/);
  });

  it('knows the parking types and London\'s two rental e-bike operators', () => {
    expect(multiModalRequest.parse({ start, end, parking_type: 'ebike', operator: 'forest' })).toMatchObject({ parkingType: 'ebike', operator: 'forest' });
    expect(problem({ start, end, parking_type: 'bay' })).toMatch(/parking_type: must be ebike or regular/);
    expect(problem({ start, end, operator: 'tier' })).toMatch(/operator: must be one of lime, forest/);
  });

  it('takes up to 23 stops, never with a custom route, and costs one token per hop', () => {
    const stops = (count: number) => Array.from({ length: count }, (_, index) => [-0.13 + index * 0.0005, 51.523]);
    const most = multiModalRequest.parse({ start, end, stops: stops(MAX_STOPS) });
    expect(multiModalCost(most)).toBe(24);
    expect(multiModalCost(multiModalRequest.parse({ start, end }))).toBe(1);
    expect(problem({ start, end, stops: stops(MAX_STOPS + 1) })).toMatch(/stops: must contain at most 23 stops/);
    expect(problem({ start, end, stops: stops(1), event_id: '6f1c2b0a-5d3e-4c1a-9b7e-2a4d8c0e1f01' })).toMatch(/stops: cannot be combined with event_id/);
    // An empty list of stops is no stops.
    expect(multiModalRequest.parse({ start, end, stops: [], event_id: '6f1c2b0a-5d3e-4c1a-9b7e-2a4d8c0e1f01' }).eventId).toBe('6f1c2b0a-5d3e-4c1a-9b7e-2a4d8c0e1f01');
  });

  it('checks the ids it resolves', () => {
    expect(problem({ start, end, event_id: 'route-1' })).toMatch(/event_id: must be the UUID of a saved custom route/);
    expect(multiModalRequest.parse({ start, end, destination_id: 12 }).destinationId).toBe(12);
    expect(multiModalRequest.parse({ start, end, destination_id: '12' }).destinationId).toBe(12);
    expect(problem({ start, end, destination_id: 'abc' })).toMatch(/destination_id: must be a destination id/);
  });

  it('lists every problem at once', () => {
    expect(problem({ start: 'home', language: 'de', stops: 3 }).split('; ').length).toBeGreaterThanOrEqual(3);
  });
});
