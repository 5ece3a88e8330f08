import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { batchGetItems } from '../../platform/batch-get.ts';
import { tableName } from '../../platform/resources.ts';
import type { RiderProfile } from './rider-profile.ts';

/**
 * User search by name (spec 4.6): case- and accent-insensitive substring match without scanning
 * the riders. Every rider's normalised name is indexed by its trigrams (three consecutive
 * characters): one item per distinct trigram in `rider-name-trigrams`, partition `trigram`, sort
 * key `name_key` = the normalised name, `#`, the rider's id. Those items are written and removed
 * in the same transaction as the profile (profiles.ts), so the index never disagrees with a name.
 *
 * A query of at least three characters is in a name only if every trigram of the query is, so
 * the riders of any one of the query's trigram partitions include every match. The search reads
 * up to eight of them (spread over the query) page by page, side by side,
 * and checks each item's name for the whole query. Within a partition items come in `name_key`
 * order, the same order in every partition, so the first partition to either yield `limit`
 * matches or run out holds exactly the first `limit` matches overall: the answer is the same
 * whichever partition finishes first, and the cost follows the rarest of the probed trigrams.
 * docs/data-model.md gives the numbers for millions of riders.
 */

/** Names are indexed up to this many normalised characters (the longest name allowed is 50). */
export const INDEXED_NAME_CHARACTERS = 50;
export const MIN_QUERY_CHARACTERS = 3;
export const MAX_QUERY_CHARACTERS = 100;
export const MAX_SEARCH_RESULTS = 50;

/**
 * Items read per page of one trigram partition: small at first, so a query with a rare trigram
 * costs little, doubling each round up to the largest page, so a common one takes few rounds.
 */
const FIRST_PAGE_SIZE = 50;
const LARGEST_PAGE_SIZE = 400;
/** The most trigram partitions read for one query. */
const MAX_PROBES = 8;
/**
 * A ceiling on the index items one search reads (about 2 MB, 250 read units), so a pathological
 * query cannot run away; past it the search answers the matches it has (docs/data-model.md).
 */
const MAX_ITEMS_READ = 20_000;

/**
 * The form names are matched in: compatibility characters folded (NFKC), lower case, accents and
 * other combining marks removed, runs of white space and control characters as one space.
 * "José  ÁLVAREZ" and "jose alvarez" are the same name to search.
 */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC')
    .replace(/[\s\p{C}]+/gu, ' ')
    .trim();
}

/** The normalised name as indexed: at most `INDEXED_NAME_CHARACTERS` characters (code points). */
export function searchableName(name: string): string {
  return Array.from(normaliseName(name)).slice(0, INDEXED_NAME_CHARACTERS).join('');
}

/** Distinct trigrams of an already normalised text, in order of first appearance. */
export function trigramsOf(normalised: string): string[] {
  const characters = Array.from(normalised);
  const trigrams = new Set<string>();
  for (let index = 0; index + 3 <= characters.length; index++) trigrams.add(characters.slice(index, index + 3).join(''));
  return [...trigrams];
}

export interface TrigramItem {
  trigram: string;
  name_key: string;
  idp_user_id: string;
  searchable_name: string;
}

/** The index items of one rider's name. */
export function trigramItems(profile: Pick<RiderProfile, 'idp_user_id' | 'name'>): TrigramItem[] {
  const searchable = searchableName(profile.name);
  return trigramsOf(searchable).map((trigram) => ({
    trigram,
    name_key: `${searchable}#${profile.idp_user_id}`,
    idp_user_id: profile.idp_user_id,
    searchable_name: searchable,
  }));
}

/** Up to `MAX_PROBES` trigrams spread evenly over the query, first and last included. */
function probesFor(query: string): string[] {
  const trigrams = trigramsOf(query);
  if (trigrams.length <= MAX_PROBES) return trigrams;
  const picks = Array.from({ length: MAX_PROBES }, (_, index) => Math.round((index * (trigrams.length - 1)) / (MAX_PROBES - 1)));
  return [...new Set(picks.map((index) => trigrams[index]!))];
}

interface Probe {
  trigram: string;
  startKey?: Record<string, unknown>;
  exhausted: boolean;
  matches: TrigramItem[];
}

async function readPage(probe: Probe, pageSize: number): Promise<TrigramItem[]> {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: tableName('riderNameTrigrams'),
      KeyConditionExpression: 'trigram = :trigram',
      ExpressionAttributeValues: { ':trigram': probe.trigram },
      Limit: pageSize,
      ...(probe.startKey ? { ExclusiveStartKey: probe.startKey } : {}),
    }),
  );
  probe.startKey = result.LastEvaluatedKey;
  probe.exhausted = !result.LastEvaluatedKey;
  return (result.Items ?? []) as TrigramItem[];
}

/** The ids of the first `limit` riders (in name order) whose searchable name contains `query`. */
export async function matchingRiderIds(query: string, limit = MAX_SEARCH_RESULTS): Promise<string[]> {
  const probes: Probe[] = probesFor(query).map((trigram) => ({ trigram, exhausted: false, matches: [] }));
  if (probes.length === 0) return [];
  let itemsRead = 0;
  for (let round = 0; ; round++) {
    const open = probes.filter((probe) => !probe.exhausted && probe.matches.length < limit);
    const pageSize = Math.min(LARGEST_PAGE_SIZE, FIRST_PAGE_SIZE * 2 ** round);
    const pagesRead = await Promise.all(open.map((probe) => readPage(probe, pageSize)));
    for (const [index, items] of pagesRead.entries()) {
      const probe = open[index]!;
      itemsRead += items.length;
      for (const item of items) if (item.searchable_name.includes(query)) probe.matches.push(item);
    }
    const settled = probes.find((probe) => probe.exhausted || probe.matches.length >= limit);
    if (settled) return settled.matches.slice(0, limit).map((item) => item.idp_user_id);
    if (itemsRead >= MAX_ITEMS_READ) {
      // Each probe holds a prefix of the answer in name order; the longest one is the best part of it.
      const best = probes.reduce((longest, probe) => (probe.matches.length > longest.matches.length ? probe : longest));
      return best.matches.map((item) => item.idp_user_id);
    }
  }
}

/** Reads profiles by id, keeping the given order; missing ones are left out. */
export async function profilesByIds(ids: readonly string[]): Promise<RiderProfile[]> {
  const profiles = await batchGetItems<RiderProfile>(tableName('riders'), ids.map((id) => ({ idp_user_id: id })));
  const byId = new Map(profiles.map((profile) => [profile.idp_user_id, profile]));
  return ids.map((id) => byId.get(id)).filter((profile): profile is RiderProfile => profile !== undefined);
}

/** Riders whose name contains the query (already validated), in name order, at most `MAX_SEARCH_RESULTS`. */
export async function searchRidersByName(query: string): Promise<RiderProfile[]> {
  const normalised = normaliseName(query);
  const profiles = await profilesByIds(await matchingRiderIds(normalised));
  // The index is written with the profile, so this only guards against reading between the two
  // halves of a read (an index page from before a rename, the profile from after it).
  return profiles.filter((profile) => searchableName(profile.name).includes(normalised));
}
