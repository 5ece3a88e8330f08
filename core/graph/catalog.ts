/**
 * Where built graphs live, in the graphs bucket and in the builder's output folder alike (the
 * folder mirrors the bucket): each city's graph files, and one small JSON pointer naming the
 * city's current graph. The pointer moves last when a graph is published, so a reader that
 * follows it always finds a complete graph.
 */

export interface CurrentGraphPointer {
  readonly graph_version: string;
  readonly key: string;
  readonly built_at: string;
  readonly source_hash: string;
}

/** The prefix of every graph file of a city, the current one and the older versions kept. */
export const graphsPrefix = (city: string): string => `cities/${city}/graphs/`;
/** Key of one built graph, e.g. `cities/london/graphs/london-20261121T030000-1a2b3c4d.graph`. */
export const graphKey = (city: string, graphVersion: string): string => `${graphsPrefix(city)}${graphVersion}.graph`;
/** Key of the JSON pointer ({@link CurrentGraphPointer}) to a city's current graph. */
export const currentPointerKey = (city: string): string => `cities/${city}/current.json`;

/** Reads a pointer object's text; anything that is not a complete pointer is an error, never a guess. */
export function parseGraphPointer(text: string): CurrentGraphPointer {
  const value = JSON.parse(text) as Partial<Record<keyof CurrentGraphPointer, unknown>>;
  for (const field of ['graph_version', 'key', 'built_at', 'source_hash'] as const) {
    if (typeof value[field] !== 'string' || !value[field]) throw new Error(`Graph pointer has no ${field}`);
  }
  return value as CurrentGraphPointer;
}

/** Reads an object's text by key from a bucket or folder laid out as above; null when there is none. */
export type CatalogReader = (key: string) => Promise<string | null>;

/** A city's current pointer through any reader: the graphs bucket, or the builder's output folder. */
export async function readGraphPointer(read: CatalogReader, city: string): Promise<CurrentGraphPointer | null> {
  const text = await read(currentPointerKey(city));
  return text === null ? null : parseGraphPointer(text);
}
