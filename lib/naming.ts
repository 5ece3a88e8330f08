/**
 * Construct ids and output keys are derived from the keys and ids in
 * `platform/resources.ts` and `endpoints.ts`, so adding an entry there needs no
 * naming decision here and existing logical ids never move.
 */

/** `multi-modal` → `MultiModal`, `apiKeys` → `ApiKeys`, `/directions/v2` → `DirectionsV2`. */
export function pascalCase(value: string): string {
  return value
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** `Object.keys` typed by the record's own keys (the definitions are closed `as const` records). */
export function keysOf<K extends string>(record: Readonly<Partial<Record<K, unknown>>>): K[] {
  return Object.keys(record) as K[];
}

/** `Object.entries` typed likewise, skipping keys a partial record leaves out. */
export function entriesOf<K extends string, V>(record: Readonly<Partial<Record<K, V>>>): [K, V][] {
  return Object.entries(record).filter((entry) => entry[1] !== undefined) as [K, V][];
}

/** Builds a record with one value per key, keeping the key type. */
export function mapKeys<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
}
