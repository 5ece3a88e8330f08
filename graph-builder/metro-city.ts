import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildableCity, type BuildableCity } from './city-recipes.ts';
import { encodePbf, type OsmElements } from './osm/pbf-writer.ts';
import { readOsmFile } from './osm/reader.ts';

/**
 * The metro-scale test city: one connected street network of millions of directed edges made of a
 * real extract. The Lower Manhattan extract (Manhattan below about 8th Street, the East River
 * bridges, Downtown Brooklyn) is cropped to a rectangle whose sides cross streets, every street
 * cut exactly where it crosses a side, and the crop is laid on a columns x rows grid, alternate
 * tiles mirrored (odd columns east-west, odd rows north-south). A mirrored tile's side is the
 * reflection of its neighbour's, so every street cut on a seam meets its own reflection there at
 * one shared node: the seams join as a street continuing into the next district, and the builder's
 * connectivity stage keeps one network (test/bench/metro.ts measures routing on it).
 *
 * Unlike graph-builder/tiled-city.ts (copies that never connect), the crop drops Jersey City's
 * sliver west of the Hudson, which no way in the extract joins to Manhattan, and cuts the west
 * side through Battery Park City and West Street, whose streets cross it.
 */

/** The crop of the extract, degrees x 1e7: every side crosses streets on land (Manhattan's west side, Brooklyn, the north edge). */
export const METRO_CROP = { west: -740_150_000, east: -739_700_000, south: 406_960_000, north: 407_290_000 } as const;

type Crop = { readonly west: number; readonly east: number; readonly south: number; readonly north: number };
type Side = 'west' | 'east' | 'south' | 'north';
const SIDES: readonly Side[] = ['west', 'east', 'south', 'north'];

/** Original element ids are below this; each tile's copy adds tile x TILE_ID_SPAN. */
const TILE_ID_SPAN = 1e11;
/** Ways beyond the first piece of a way cut into several get ids from here up (within a tile's span). */
const PIECE_ID_BASE = 9e10;
/** Seam nodes: SEAM_ID_BASE + seam key x 1e6 + crossing number, shared by the two tiles of a seam. */
const SEAM_ID_BASE = 9e14;

/** A seam node of the crop: where a way's segment crosses a side, in the crop's own coordinates. */
interface Crossing {
  readonly side: Side;
  /** Its number among the crossings of that side. */
  readonly index: number;
  readonly lonE7: number;
  readonly latE7: number;
}

/** The crop: elements inside it, ways cut at its sides. A negative ref -(k + 1) is crossings[k]. */
export interface CroppedExtract {
  readonly crop: Crop;
  readonly elements: OsmElements;
  readonly crossings: readonly Crossing[];
}

const inside = (crop: Crop, lonE7: number, latE7: number): boolean => lonE7 > crop.west && lonE7 < crop.east && latE7 > crop.south && latE7 < crop.north;

/**
 * Where the segment from an inside point to an outside one leaves the crop: the side it crosses
 * first, and the point on it (rounded to the grid of the coordinates; a side's coordinate exact).
 */
function exitPoint(crop: Crop, from: readonly [number, number], to: readonly [number, number]): { side: Side; lonE7: number; latE7: number } {
  const [x0, y0] = from;
  const [x1, y1] = to;
  const candidates: { side: Side; t: number }[] = [];
  if (x1 <= crop.west) candidates.push({ side: 'west', t: (crop.west - x0) / (x1 - x0) });
  if (x1 >= crop.east) candidates.push({ side: 'east', t: (crop.east - x0) / (x1 - x0) });
  if (y1 <= crop.south) candidates.push({ side: 'south', t: (crop.south - y0) / (y1 - y0) });
  if (y1 >= crop.north) candidates.push({ side: 'north', t: (crop.north - y0) / (y1 - y0) });
  const { side, t } = candidates.reduce((first, candidate) => (candidate.t < first.t ? candidate : first));
  const lonE7 = side === 'west' || side === 'east' ? crop[side] : Math.round(x0 + t * (x1 - x0));
  const latE7 = side === 'south' || side === 'north' ? crop[side] : Math.round(y0 + t * (y1 - y0));
  return { side, lonE7, latE7 };
}

/**
 * Crops an extract: nodes inside kept, each way split into its runs inside the crop, a run that
 * reaches a side ending at a new node on it. Relations are kept whose ways all survive whole
 * (a turn restriction on a cut way is dropped, as an extract's clipping drops it).
 */
export function cropExtract(original: OsmElements, crop: Crop): CroppedExtract {
  const position = new Map<number, readonly [number, number]>();
  for (const node of original.nodes) position.set(node.id, [node.lonE7, node.latE7]);
  const isInside = (id: number): boolean => {
    const at = position.get(id);
    return at !== undefined && inside(crop, at[0], at[1]);
  };
  const crossings: Crossing[] = [];
  const perSide: Record<Side, number> = { west: 0, east: 0, south: 0, north: 0 };
  const crossingRef = (from: number, to: number): number => {
    const point = exitPoint(crop, position.get(from)!, position.get(to)!);
    crossings.push({ ...point, index: perSide[point.side]++ });
    return -crossings.length;
  };
  const ways: { id: number; refs: number[]; tags: OsmElements['ways'][number]['tags'] }[] = [];
  const whole = new Set<number>();
  let nextPieceId = PIECE_ID_BASE;
  for (const way of original.ways) {
    if (way.id >= PIECE_ID_BASE) throw new Error(`way ${way.id} is beyond the ids a tile's copy leaves room for`);
    const pieces: number[][] = [];
    let run: number[] = [];
    way.refs.forEach((ref, i) => {
      const previous = way.refs[i - 1];
      if (isInside(ref)) {
        if (run.length === 0 && previous !== undefined && position.has(previous)) run.push(crossingRef(ref, previous));
        run.push(ref);
        return;
      }
      if (run.length > 0 && position.has(ref)) run.push(crossingRef(previous!, ref));
      if (run.length >= 2) pieces.push(run);
      run = [];
    });
    if (run.length >= 2) pieces.push(run);
    if (pieces.length === 1 && pieces[0]!.length === way.refs.length) whole.add(way.id);
    pieces.forEach((refs, piece) => ways.push({ id: piece === 0 ? way.id : nextPieceId++, refs, tags: way.tags }));
  }
  const relations = original.relations.filter((relation) => relation.members.every((member) => member.type !== 'way' || whole.has(member.ref)));
  const nodes = original.nodes.filter((node) => inside(crop, node.lonE7, node.latE7));
  return { crop, elements: { nodes, ways, relations }, crossings };
}

/** Where a tile lies on the grid, and which of its sides face which seam. */
class TilePlacement {
  readonly index: number;
  private readonly mirroredX: boolean;
  private readonly mirroredY: boolean;

  constructor(private readonly crop: Crop, private readonly columns: number, private readonly rows: number, readonly column: number, readonly row: number) {
    this.index = row * columns + column;
    this.mirroredX = column % 2 === 1;
    this.mirroredY = row % 2 === 1;
  }

  /** The tile's copy of a crop coordinate. */
  lon(lonE7: number): number {
    const width = this.crop.east - this.crop.west;
    return this.mirroredX ? 2 * this.crop.west + (this.column + 1) * width - lonE7 : lonE7 + this.column * width;
  }

  lat(latE7: number): number {
    const height = this.crop.north - this.crop.south;
    return this.mirroredY ? 2 * this.crop.south + (this.row + 1) * height - latE7 : latE7 + this.row * height;
  }

  /**
   * The id of a crossing's node in this tile: on an inner seam the same for both tiles of it (the
   * mirrored neighbour cuts the same street at the same place), on the grid's outer edge its own.
   */
  crossingId(crossing: Crossing): number {
    const vertical = crossing.side === 'west' || crossing.side === 'east';
    // After mirroring, does this side face the grid's east (north) or west (south)?
    const facesHigh = (crossing.side === 'east' || crossing.side === 'north') !== (vertical ? this.mirroredX : this.mirroredY);
    const position = vertical ? this.column : this.row;
    const seam = facesHigh ? position : position - 1;
    const last = (vertical ? this.columns : this.rows) - 1;
    const outer = seam < 0 || seam >= last;
    const key = outer ? 20_000 + this.index * 4 + SIDES.indexOf(crossing.side) : vertical ? seam * 100 + this.row : 10_000 + this.column * 100 + seam;
    return SEAM_ID_BASE + key * 1e6 + crossing.index;
  }
}

/** One tile's copy of the crop: ids offset by tile, seam refs resolved, coordinates placed. */
function tileCopy(cropped: CroppedExtract, placement: TilePlacement, seamNodes: Map<number, { lonE7: number; latE7: number }>): OsmElements {
  const offset = placement.index * TILE_ID_SPAN;
  const ref = (value: number): number => {
    if (value >= 0) return value + offset;
    const crossing = cropped.crossings[-value - 1]!;
    const id = placement.crossingId(crossing);
    seamNodes.set(id, { lonE7: placement.lon(crossing.lonE7), latE7: placement.lat(crossing.latE7) });
    return id;
  };
  const { nodes, ways, relations } = cropped.elements;
  return {
    nodes: nodes.map((node) => ({ ...node, id: node.id + offset, lonE7: placement.lon(node.lonE7), latE7: placement.lat(node.latE7) })),
    ways: ways.map((way) => ({ ...way, id: way.id + offset, refs: way.refs.map(ref) })),
    relations: relations.map((relation) => ({ ...relation, id: relation.id + offset, members: relation.members.map((member) => ({ ...member, ref: member.ref + offset })) })),
  };
}

export interface MetroExtracts {
  /** One PBF file per tile, then one of the seam nodes. */
  readonly paths: string[];
  readonly bytes: number;
  /** Seam nodes shared by two tiles (the joins), and those on the grid's outer edge. */
  readonly joins: number;
  readonly outerCrossings: number;
  /** Crossings of each side of the crop (a street cut there). */
  readonly crossingsPerSide: Record<Side, number>;
}

/** Reads the extract whole (about 230k nodes), crops it and writes the tiles into `workDir`. */
export async function metroExtracts(path: string, columns: number, rows: number, workDir: string, crop: Crop = METRO_CROP): Promise<MetroExtracts> {
  const original: OsmElements = { nodes: [], ways: [], relations: [] };
  await readOsmFile(path, {
    node: (id, lonE7, latE7, tags) => original.nodes.push({ id, lonE7, latE7, tags }),
    way: (id, refs, tags) => original.ways.push({ id, refs: [...refs], tags }),
    relation: (id, members, tags) => original.relations.push({ id, members: [...members], tags }),
  });
  const cropped = cropExtract(original, crop);
  const seamNodes = new Map<number, { lonE7: number; latE7: number }>();
  const paths: string[] = [];
  let bytes = 0;
  const write = async (name: string, elements: OsmElements) => {
    const encoded = encodePbf(elements);
    const file = join(workDir, name);
    await writeFile(file, encoded);
    paths.push(file);
    bytes += encoded.length;
  };
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const placement = new TilePlacement(crop, columns, rows, column, row);
      await write(`metro-tile-${placement.index}.osm.pbf`, tileCopy(cropped, placement, seamNodes));
    }
  }
  await write('metro-seams.osm.pbf', { nodes: [...seamNodes].map(([id, at]) => ({ id, ...at, tags: null })), ways: [], relations: [] });
  const outerCrossings = [...seamNodes.keys()].filter((id) => id >= SEAM_ID_BASE + 20_000 * 1e6).length;
  const crossingsPerSide = { west: 0, east: 0, south: 0, north: 0 };
  for (const crossing of cropped.crossings) crossingsPerSide[crossing.side]++;
  return { paths, bytes, joins: seamNodes.size - outerCrossings, outerCrossings, crossingsPerSide };
}

/** The metro city, its extracts written into `workDir`, with a boundary just around the grid. */
export async function metroCity(dataPath: string, columns: number, rows: number, workDir: string): Promise<{ city: BuildableCity; extracts: MetroExtracts }> {
  const newYork = buildableCity('new-york');
  const extracts = await metroExtracts(join(dataPath, newYork.graph.extracts[1]!), columns, rows, workDir);
  const margin = 0.01;
  const west = METRO_CROP.west / 1e7 - margin;
  const south = METRO_CROP.south / 1e7 - margin;
  const east = (METRO_CROP.west + columns * (METRO_CROP.east - METRO_CROP.west)) / 1e7 + margin;
  const north = (METRO_CROP.south + rows * (METRO_CROP.north - METRO_CROP.south)) / 1e7 + margin;
  const boundary: [number, number][] = [[west, south], [east, south], [east, north], [west, north], [west, south]];
  return { city: { ...newYork, boundary, graph: { extracts: extracts.paths, nightlySources: [] } }, extracts };
}
