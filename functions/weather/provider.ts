import { logger } from '../../platform/logger.ts';
import { offlineWeather } from './offline.ts';
import { openMeteoWeather } from './open-meteo.ts';
import type { WeatherPoint, WeatherProvider, WeatherReport } from './report.ts';

/**
 * The weather a ride is stored with (spec 2.2: captured when the ride is created). Providers are
 * interchangeable behind `WeatherProvider`; `WEATHER_PROVIDER` picks one: `open-meteo` (the
 * default, what AWS runs) or `offline` (the local platform: deterministic, no network, and its
 * display text says it is not a real observation). A provider that is slow or failing never
 * fails the ride: after `WEATHER_TIMEOUT_MS` the ride is stored without weather.
 */

export const WEATHER_TIMEOUT_MS = 2_500;

export function weatherProvider(): WeatherProvider {
  const name = process.env.WEATHER_PROVIDER ?? 'open-meteo';
  if (name === 'open-meteo') return openMeteoWeather();
  if (name === 'offline') return offlineWeather;
  throw new Error(`WEATHER_PROVIDER must be open-meteo or offline, not "${name}"`);
}

/** The weather now at `point`, or null when the provider fails or takes longer than `timeoutMs`. */
export async function captureWeather(
  point: WeatherPoint,
  provider: WeatherProvider = weatherProvider(),
  timeoutMs = WEATHER_TIMEOUT_MS,
): Promise<WeatherReport | null> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await Promise.race([
      provider.current(point, signal),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`no answer within ${timeoutMs} ms`)), { once: true })),
    ]);
  } catch (error) {
    logger.warn('weather unavailable; storing the ride without it', { provider: provider.name, reason: (error as Error).message });
    return null;
  }
}
