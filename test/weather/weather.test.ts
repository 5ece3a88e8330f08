import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineWeather, OFFLINE_WEATHER_SOURCE } from '../../functions/weather/offline.ts';
import { OPEN_METEO_ATTRIBUTION, openMeteoWeather } from '../../functions/weather/open-meteo.ts';
import { captureWeather } from '../../functions/weather/provider.ts';
import { conditionOfWmoCode } from '../../functions/weather/report.ts';

/**
 * Weather providers: the Open-Meteo adapter against a local server speaking its API, the timeout
 * that leaves a ride without weather, and the offline provider's repeatable, labelled answers.
 */

let server: Server;
let requests: URL[] = [];
let reply: (url: URL) => { status: number; body: unknown; delayMs?: number } = () => ({ status: 500, body: {} });

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://localhost');
    requests.push(url);
    const { status, body, delayMs = 0 } = reply(url);
    setTimeout(() => {
      if (response.destroyed) return;
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    }, delayMs).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.OPEN_METEO_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.OPEN_METEO_URL;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const london = { latitude: 51.5246, longitude: -0.1337 };

describe('Open-Meteo adapter', () => {
  it('asks for current conditions in °F and mph and reports them with the attribution', async () => {
    requests = [];
    reply = () => ({
      status: 200,
      body: {
        latitude: 51.52,
        longitude: -0.13,
        current: { time: '2026-11-24T09:45', interval: 900, temperature_2m: 47.26, weather_code: 61, wind_speed_10m: 22.4 },
        current_units: { temperature_2m: '°F', wind_speed_10m: 'mp/h', weather_code: 'wmo code' },
      },
    });
    const report = await captureWeather(london, openMeteoWeather());
    expect(requests).toHaveLength(1);
    expect(requests[0]!.pathname).toBe('/v1/forecast');
    expect(Object.fromEntries(requests[0]!.searchParams)).toEqual({
      latitude: '51.5246',
      longitude: '-0.1337',
      current: 'temperature_2m,weather_code,wind_speed_10m',
      temperature_unit: 'fahrenheit',
      wind_speed_unit: 'mph',
    });
    expect(report).toMatchObject({
      conditions: ['Rain', 'Windy'],
      temperatureF: 47.3,
      windSpeedMph: 22.4,
      display: `Rain, Windy, 47°F, wind 22 mph · ${OPEN_METEO_ATTRIBUTION}`,
    });
  });

  it('gives no weather (never an error) when the service is slow, failing or says nothing useful', async () => {
    // An answer held back longer than the test may run: only the 200 ms limit can end this call.
    reply = () => ({ status: 200, body: { current: { temperature_2m: 50, weather_code: 1, wind_speed_10m: 3 } }, delayMs: 600_000 });
    expect(await captureWeather(london, openMeteoWeather(), 200)).toBeNull();
    reply = () => ({ status: 503, body: { error: true, reason: 'busy' } });
    expect(await captureWeather(london, openMeteoWeather())).toBeNull();
    reply = () => ({ status: 200, body: { current: { temperature_2m: 'warm' } } });
    expect(await captureWeather(london, openMeteoWeather())).toBeNull();
    const hanging = { name: 'hanging', current: () => new Promise<never>(() => undefined) };
    expect(await captureWeather(london, hanging, 100)).toBeNull();
  });

  it('names WMO codes', () => {
    expect([0, 2, 3, 45, 53, 65, 75, 81, 86, 95, 42].map(conditionOfWmoCode)).toEqual([
      'Clear', 'Partly cloudy', 'Overcast', 'Fog', 'Drizzle', 'Rain', 'Snow', 'Rain showers', 'Snow showers', 'Thunderstorm', 'Unknown',
    ]);
  });
});

describe('offline weather', () => {
  it('answers the same for the same place and hour, within temperate bounds, and says it is simulated', async () => {
    const signal = new AbortController().signal;
    const [one, two] = [await offlineWeather.current(london, signal), await offlineWeather.current(london, signal)];
    expect({ ...one, fetchedAt: '' }).toEqual({ ...two, fetchedAt: '' });
    expect(one.temperatureF).toBeGreaterThanOrEqual(40);
    expect(one.temperatureF).toBeLessThan(80);
    expect(one.display.endsWith(`· ${OFFLINE_WEATHER_SOURCE}`)).toBe(true);
  });
});
