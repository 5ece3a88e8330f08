import { weatherReport, type WeatherProvider } from './report.ts';

/**
 * Current conditions from Open-Meteo (https://open-meteo.com): no key needed, WMO weather codes,
 * Fahrenheit and mph on request. Terms: the free API (`api.open-meteo.com`) is for non-commercial
 * use under 10,000 calls a day, and its data is CC BY 4.0, so every report names Open-Meteo.com in
 * its display text. A commercial deployment subscribes and sets `OPEN_METEO_API_KEY`, which
 * switches to the customer endpoint (`customer-api.open-meteo.com`). `OPEN_METEO_URL` overrides
 * the endpoint (tests point it at a local server).
 */

export const OPEN_METEO_ATTRIBUTION = 'Weather data by Open-Meteo.com';

interface ForecastResponse {
  current?: { temperature_2m?: unknown; weather_code?: unknown; wind_speed_10m?: unknown };
}

export function openMeteoWeather(): WeatherProvider {
  const apiKey = process.env.OPEN_METEO_API_KEY;
  const base = process.env.OPEN_METEO_URL ?? (apiKey ? 'https://customer-api.open-meteo.com' : 'https://api.open-meteo.com');
  return {
    name: 'open-meteo',
    async current(point, signal) {
      const url = new URL('/v1/forecast', base);
      url.search = new URLSearchParams({
        latitude: point.latitude.toFixed(4),
        longitude: point.longitude.toFixed(4),
        current: 'temperature_2m,weather_code,wind_speed_10m',
        temperature_unit: 'fahrenheit',
        wind_speed_unit: 'mph',
        ...(apiKey ? { apikey: apiKey } : {}),
      }).toString();
      const response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
      if (!response.ok) throw new Error(`Open-Meteo answered ${response.status}`);
      const current = ((await response.json()) as ForecastResponse).current;
      const numbers = [current?.weather_code, current?.temperature_2m, current?.wind_speed_10m];
      if (!numbers.every((value) => typeof value === 'number' && Number.isFinite(value))) {
        throw new Error('Open-Meteo sent no current temperature, weather code or wind speed');
      }
      const [wmoCode, temperatureF, windSpeedMph] = numbers as number[];
      return weatherReport({ wmoCode: wmoCode!, temperatureF: temperatureF!, windSpeedMph: windSpeedMph!, source: OPEN_METEO_ATTRIBUTION });
    },
  };
}
