import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { projectRoot } from '../../lib/project-root.ts';

/** The GPX 1.1 schema (test/fixtures/gpx/gpx-1.1.xsd, TopoGrafix's own text), which every GPX the platform writes must satisfy. */
const GPX_SCHEMA = { fileName: 'gpx-1.1.xsd', contents: readFileSync(join(projectRoot, 'test/fixtures/gpx/gpx-1.1.xsd'), 'utf8') };

/** What libxml2 finds wrong with `document` against the GPX 1.1 schema: empty when it is valid. */
export async function gpxSchemaProblems(document: string): Promise<string[]> {
  const result = await validateXML({ xml: { fileName: 'route.gpx', contents: document }, schema: GPX_SCHEMA });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}

/** The points of a GPX document as `[longitude, latitude]` with their other fields, in document order, by element name. */
export function gpxPoints(document: string, tag: 'wpt' | 'rtept' | 'trkpt'): { position: [number, number]; ele?: number; name?: string; desc?: string }[] {
  const points = [];
  for (const match of document.matchAll(new RegExp(`<${tag} lat="([^"]+)" lon="([^"]+)"(?:/>|>([\\s\\S]*?)</${tag}>)`, 'g'))) {
    const body = match[3] ?? '';
    const field = (name: string) => {
      const found = new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1];
      return found === undefined ? undefined : unescapeXml(found);
    };
    const ele = field('ele');
    points.push({ position: [Number(match[2]), Number(match[1])] as [number, number], ele: ele === undefined ? undefined : Number(ele), name: field('name'), desc: field('desc') });
  }
  return points;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (text: string): string => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]!);
