import { OsmInputError, type OsmHandlers } from './types.ts';
import { detectFormat, openOsmInput } from './input.ts';
import { readPbf } from './pbf.ts';
import { readXml } from './xml.ts';

export type { OsmHandlers, RelationMember, Tags } from './types.ts';
export { OsmInputError } from './types.ts';

export interface ReadProgress {
  readonly file: string;
  readonly bytesRead: number;
  readonly totalBytes: number;
}

/**
 * One streaming pass over an OSM extract in any supported form (PBF, XML; plain, gzip or
 * bzip2), calling `handlers` for each element. Errors in the file itself become OsmInputError.
 */
export async function readOsmFile(
  path: string,
  handlers: OsmHandlers,
  onProgress?: (progress: ReadProgress) => void,
): Promise<void> {
  const input = await openOsmInput(path);
  const report = (): void => onProgress?.({ file: input.name, bytesRead: input.bytesRead(), totalBytes: input.totalBytes });
  const timer = onProgress ? setInterval(report, 200) : undefined;
  try {
    const { format, chunks } = await detectFormat(input);
    if (format === 'pbf') await readPbf(input.name, chunks, handlers);
    else await readXml(input.name, chunks, handlers);
    report();
  } catch (error) {
    if (error instanceof OsmInputError) throw error;
    // Decompression errors (truncated .gz/.bz2) arrive from the stream without a file name.
    const what = input.compression === 'none' ? 'file' : `${input.compression} data`;
    throw new OsmInputError(input.name, `cannot read ${what}: corrupt or truncated (${(error as Error).message})`, { cause: error });
  } finally {
    if (timer) clearInterval(timer);
  }
}
