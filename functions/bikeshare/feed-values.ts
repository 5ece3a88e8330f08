/**
 * Reading the values of a feed document the way every GBFS version writes them: numbers or
 * numeric strings, booleans or 0/1, POSIX seconds (1.x, 2.x) or RFC 3339 times (3.x), plain
 * strings (2.x) or localised-string arrays (3.x). Each reader answers null for a value it cannot
 * read, so one bad entry is dropped and counted instead of failing the whole feed.
 */

/** Why a fetched document cannot replace what the snapshot holds. */
export type RefusalKind = 'broken' | 'partial' | 'stale';

export class FeedRefused extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly feed: string,
    message: string,
  ) {
    super(`${feed}: ${kind}: ${message}`);
    this.name = 'FeedRefused';
  }
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function finiteNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** A count: a non-negative integer, also when written as a string (TfL: `"11"`). */
export function count(value: unknown): number | null {
  const number = finiteNumber(value);
  return number !== null && Number.isInteger(number) && number >= 0 ? number : null;
}

/** GBFS booleans: true/false, or 1/0 as 1.x feeds (and Lyft's 2.x) write them, or TfL's strings. */
export function flag(value: unknown): boolean | null {
  if (value === true || value === 1 || value === 'true' || value === '1') return true;
  if (value === false || value === 0 || value === 'false' || value === '0') return false;
  return null;
}

export function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** An id: GBFS says string, some feeds send numbers. */
export function identifier(value: unknown): string | null {
  const id = text(value);
  return id !== null && id.trim() !== '' ? id : null;
}

/**
 * A time as Unix seconds: 1.x/2.x POSIX seconds, or a 3.x RFC 3339 string with its offset
 * (fractional seconds are dropped, as POSIX times have none).
 */
export function unixSeconds(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
  }
  return null;
}

/**
 * A name in the preferred language: 2.x gives a string, 3.x an array of `{text, language}`;
 * without the preferred language, the first translation.
 */
export function localised(value: unknown, language: string): string | null {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return null;
  const translations = value.filter((entry): entry is { text: string; language: string } => isObject(entry) && typeof entry.text === 'string');
  const base = (tag: unknown) => (typeof tag === 'string' ? tag.toLowerCase().split('-')[0] : '');
  return (translations.find((entry) => base(entry.language) === base(language)) ?? translations[0])?.text ?? null;
}

export function latitude(value: unknown): number | null {
  const number = finiteNumber(value);
  return number !== null && number >= -90 && number <= 90 ? number : null;
}

export function longitude(value: unknown): number | null {
  const number = finiteNumber(value);
  return number !== null && number >= -180 && number <= 180 ? number : null;
}

export function stringList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const ids = value.map(identifier);
  return ids.every((id): id is string => id !== null) ? ids : null;
}
