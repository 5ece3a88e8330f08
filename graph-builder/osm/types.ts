/** OSM elements as the readers hand them over: plain numbers and tag objects, nothing retained. */

export type Tags = Record<string, string>;

export type MemberType = 'node' | 'way' | 'relation';

export interface RelationMember {
  readonly type: MemberType;
  readonly ref: number;
  readonly role: string;
}

/**
 * Callbacks for one pass over an extract. A pass that sets no `node` handler lets the readers skip
 * node decoding entirely; `nodeFilter` lets them skip tag decoding for nodes nobody needs.
 */
export interface OsmHandlers {
  /**
   * Coordinates in 1e-7 degrees. `tags` is null for untagged nodes. `version` is the element's OSM
   * version, 0 where the file does not say (extracts with their metadata stripped).
   */
  node?(id: number, lonE7: number, latE7: number, tags: Tags | null, version: number): void;
  nodeFilter?(id: number): boolean;
  way?(id: number, refs: readonly number[], tags: Tags, version: number): void;
  /** Report only ways carrying this tag key; the others are skipped without decoding their tags or nodes. */
  wayKey?: string;
  relation?(id: number, members: readonly RelationMember[], tags: Tags): void;
}

/** A problem with the input file itself (truncated, corrupt, unsupported); the build stops. */
export class OsmInputError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${message}`, options);
    this.name = 'OsmInputError';
  }
}
