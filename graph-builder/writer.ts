import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  GRAPH_FORMAT_VERSION, GRAPH_MAGIC, PRELUDE_BYTES, SECTION_ALIGNMENT, bytesPerElement, sectionNames, sectionTypes,
  type GraphHeader, type SectionEntry, type SectionName,
} from '../core/graph/layout.ts';

type SectionArrays = { readonly [K in SectionName]: ArrayBufferView & { readonly length: number } };
export type HeaderWithoutSections = Omit<GraphHeader, 'sections'>;

/** Interns strings for the graph's string table; id 0 is the empty string. */
export class StringTable {
  private readonly ids = new Map<string, number>([['', 0]]);
  readonly strings: string[] = [''];

  intern(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(text);
      this.ids.set(text, id);
    }
    return id;
  }

  encode(): { offsets: Uint32Array; bytes: Uint8Array } {
    const encoder = new TextEncoder();
    const encoded = this.strings.map((text) => encoder.encode(text));
    const offsets = new Uint32Array(encoded.length + 1);
    for (let i = 0; i < encoded.length; i++) offsets[i + 1] = offsets[i]! + encoded[i]!.length;
    const bytes = new Uint8Array(offsets[encoded.length]!);
    for (let i = 0; i < encoded.length; i++) bytes.set(encoded[i]!, offsets[i]!);
    return { offsets, bytes };
  }
}

const alignUp = (value: number): number => Math.ceil(value / SECTION_ALIGNMENT) * SECTION_ALIGNMENT;

/** Byte layout for a set of section lengths; the sections are then filled at these offsets. */
function layoutSections(
  headerByteLength: number,
  lengths: Readonly<Record<SectionName, number>>,
): { sections: Record<SectionName, SectionEntry>; totalBytes: number } {
  let offset = alignUp(PRELUDE_BYTES + headerByteLength);
  const sections = {} as Record<SectionName, SectionEntry>;
  for (const name of sectionNames) {
    const type = sectionTypes[name];
    sections[name] = { offset, length: lengths[name], type };
    offset = alignUp(offset + lengths[name] * bytesPerElement(type));
  }
  return { sections, totalBytes: offset };
}

/** The file as pieces: the prelude with the header, then each section's bytes at its offset; zeros between. */
interface GraphFileParts {
  readonly prelude: Uint8Array;
  readonly sections: readonly { readonly offset: number; readonly bytes: Uint8Array }[];
  readonly totalBytes: number;
}

function graphFileParts(header: HeaderWithoutSections, arrays: SectionArrays): GraphFileParts {
  for (const name of sectionNames) {
    const expected = sectionTypes[name];
    const actual = arrays[name].constructor.name;
    const wanted = { u8: 'Uint8Array', u16: 'Uint16Array', u32: 'Uint32Array', i32: 'Int32Array', f32: 'Float32Array', f64: 'Float64Array' }[expected];
    if (actual !== wanted) throw new Error(`Section ${name} is a ${actual}, the format says ${wanted}`);
  }
  const lengths = Object.fromEntries(sectionNames.map((name) => [name, arrays[name].length])) as Record<SectionName, number>;
  const encoder = new TextEncoder();
  // Section offsets depend on the header's length, which depends on the offsets: grow until stable.
  let reserved = 4096;
  for (;;) {
    const { sections, totalBytes } = layoutSections(reserved, lengths);
    const json = encoder.encode(JSON.stringify({ ...header, sections }));
    if (json.length > reserved) {
      reserved = json.length + 256;
      continue;
    }
    const prelude = new Uint8Array(PRELUDE_BYTES + reserved);
    prelude.set(encoder.encode(GRAPH_MAGIC), 0);
    const view = new DataView(prelude.buffer);
    view.setUint32(8, GRAPH_FORMAT_VERSION, true);
    view.setUint32(12, reserved, true);
    prelude.fill(0x20, PRELUDE_BYTES); // JSON may end in spaces
    prelude.set(json, PRELUDE_BYTES);
    return {
      prelude,
      sections: sectionNames.map((name) => {
        const source = arrays[name];
        return { offset: sections[name].offset, bytes: new Uint8Array(source.buffer, source.byteOffset, source.byteLength) };
      }),
      totalBytes,
    };
  }
}

/**
 * Writes the graph file (prelude, header with section offsets, aligned sections) to `path`,
 * atomically, section by section from the arrays where they are: a city's graph is never held a
 * second time in memory. Returns its size in bytes.
 */
export async function writeGraphFile(path: string, header: HeaderWithoutSections, arrays: SectionArrays): Promise<number> {
  const parts = graphFileParts(header, arrays);
  await atomically(path, async (handle) => {
    await handle.write(parts.prelude, 0, parts.prelude.length, 0);
    let end = parts.prelude.length;
    for (const { offset, bytes } of parts.sections) {
      // Alignment padding is written as zeros, not left as a hole, so the file reads the same anywhere.
      if (offset > end) await handle.write(new Uint8Array(offset - end), 0, offset - end, end);
      if (bytes.length > 0) await handle.write(bytes, 0, bytes.length, offset);
      end = offset + bytes.length;
    }
    if (parts.totalBytes > end) await handle.write(new Uint8Array(parts.totalBytes - end), 0, parts.totalBytes - end, end);
  });
  return parts.totalBytes;
}

/**
 * Writes `bytes` to `path` atomically: into a temporary file beside it, flushed, then renamed over
 * the target. A failure at any point removes the temporary file, so readers only ever see a
 * complete old file or a complete new one.
 */
export function writeFileAtomically(path: string, bytes: Uint8Array | string): Promise<void> {
  return atomically(path, (handle) => handle.writeFile(bytes));
}

/** Runs `write` on a temporary file beside `path`, flushes it and renames it over `path`; removes it on failure. */
async function atomically(path: string, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const handle = await open(temporary, 'w');
    try {
      await write(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
