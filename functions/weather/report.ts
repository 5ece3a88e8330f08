import { now } from '../../platform/clock.ts';

/** What a weather provider answers, and the shape every provider's numbers are turned into. */

export interface WeatherReport {
  /** Short condition names, e.g. ["Partly cloudy"], or ["Rain", "Windy"]. */
  conditions: string[];
  temperatureF: number;
  windSpeedMph: number;
  /** When the platform asked for it (ISO 8601). */
  fetchedAt: string;
  /** One line for people, ending with the source (which a provider's terms may require). */
  display: string;
}

export interface WeatherPoint {
  latitude: number;
  longitude: number;
}

export interface WeatherProvider {
  readonly name: string;
  current(point: WeatherPoint, signal: AbortSignal): Promise<WeatherReport>;
}

/** Wind at or above this speed adds "Windy" to the conditions. */
const WINDY_MPH = 20;

/** WMO weather interpretation codes (as Open-Meteo reports them) to condition names. */
export function conditionOfWmoCode(code: number): string {
  if (code === 0) return 'Clear';
  if (code === 1) return 'Mainly clear';
  if (code === 2) return 'Partly cloudy';
  if (code === 3) return 'Overcast';
  if (code === 45 || code === 48) return 'Fog';
  if (code >= 51 && code <= 57) return 'Drizzle';
  if (code >= 61 && code <= 67) return 'Rain';
  if (code >= 71 && code <= 77) return 'Snow';
  if (code >= 80 && code <= 82) return 'Rain showers';
  if (code === 85 || code === 86) return 'Snow showers';
  if (code >= 95 && code <= 99) return 'Thunderstorm';
  return 'Unknown';
}

/** A report from the three numbers every provider gives, in the shape rides store. */
export function weatherReport(input: { wmoCode: number; temperatureF: number; windSpeedMph: number; source: string }): WeatherReport {
  const temperatureF = Math.round(input.temperatureF * 10) / 10;
  const windSpeedMph = Math.round(input.windSpeedMph * 10) / 10;
  const conditions = [conditionOfWmoCode(input.wmoCode), ...(windSpeedMph >= WINDY_MPH ? ['Windy'] : [])];
  return {
    conditions,
    temperatureF,
    windSpeedMph,
    fetchedAt: now().toISOString(),
    display: `${conditions.join(', ')}, ${Math.round(temperatureF)}°F, wind ${Math.round(windSpeedMph)} mph · ${input.source}`,
  };
}
