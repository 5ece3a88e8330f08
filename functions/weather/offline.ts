import { createHash } from 'node:crypto';
import { now } from '../../platform/clock.ts';
import { weatherReport, type WeatherProvider } from './report.ts';

/**
 * The local platform's weather: no network, and the same answer for the same place and hour, so
 * demo rides and tests are repeatable. It is not an observation, and its display text says so.
 */

export const OFFLINE_WEATHER_SOURCE = 'offline weather (simulated, not observed)';

const CODES = [0, 1, 2, 3, 45, 61, 80, 3, 2, 1];

export const offlineWeather: WeatherProvider = {
  name: 'offline',
  async current(point) {
    const hour = now().toISOString().slice(0, 13);
    const digest = createHash('sha256').update(`${point.latitude.toFixed(2)},${point.longitude.toFixed(2)},${hour}`).digest();
    // Temperate values: 40-79 °F, wind 0-24 mph.
    return weatherReport({
      wmoCode: CODES[digest[0]! % CODES.length]!,
      temperatureF: 40 + (digest[1]! % 40),
      windSpeedMph: digest[2]! % 25,
      source: OFFLINE_WEATHER_SOURCE,
    });
  },
};
