import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
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

/** The complete file as bytes: prelude, header (with section offsets) and aligned sections. */
export function serializeGraph(header: HeaderWithoutSections, arrays: SectionArrays): Uint8Array {
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
    const bytes = new Uint8Array(totalBytes);
    bytes.set(encoder.encode(GRAPH_MAGIC), 0);
    const view = new DataView(bytes.buffer);
    view.setUint32(8, GRAPH_FORMAT_VERSION, true);
    view.setUint32(12, reserved, true);
    bytes.fill(0x20, PRELUDE_BYTES, PRELUDE_BYTES + reserved); // JSON may end in spaces
    bytes.set(json, PRELUDE_BYTES);
    for (const name of sectionNames) {
      const source = arrays[name];
      bytes.set(new Uint8Array(source.buffer, source.byteOffset, source.byteLength), sections[name].offset);
    }
    return bytes;
  }
}

/**
 * Writes `bytes` to `path` atomically: into a temporary file beside it, flushed, then renamed over
 * the target. A failure at any point removes the temporary file, so readers only ever see a
 * complete old file or a complete new one.
 */
export async function writeFileAtomically(path: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(bytes);
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
