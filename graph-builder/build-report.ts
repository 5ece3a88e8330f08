import { join, resolve } from 'node:path';
import { SAFETY_CLASSES } from '../core/graph/flags.ts';
import type { BuildReport } from './build.ts';
import { GRADE_BANDS } from './statistics.ts';
import { cityNotes } from './spot-checks.ts';

/** The build report as text for the terminal and as Markdown for docs/graph-report.md. */

const km = (value: number): string => value.toFixed(1);
const percent = (value: number): string => `${(value * 100).toFixed(0)}%`;
const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;

function classLine(byClass: Readonly<Record<string, number>>): string {
  return SAFETY_CLASSES.map((name) => `${name} ${km(byClass[name] ?? 0)}`).join(', ');
}

/** `Elevation: …` of the report: where the heights came from, and the rideable km per grade band. */
function elevationLine(report: BuildReport): string {
  const { source, nodes_by_source: nodes, models = [] } = report.elevation;
  const used = models.length ? ` from ${models.map((model) => `${model.name} ${model.nodes}`).join(', ')}` : '';
  const line = `Elevation: ${source} (nodes: dem ${nodes.dem}${used}, osm ${nodes.osm}, none ${nodes.flat})`;
  const byGrade = report.statistics.rideableKmByGrade;
  if (!byGrade) return line;
  const bands = byGrade.map((km, i) => `${i === 0 ? `under ${percent(GRADE_BANDS[0])}` : i === GRADE_BANDS.length ? `${percent(GRADE_BANDS[i - 1]!)} and steeper` : `${percent(GRADE_BANDS[i - 1]!)}–${percent(GRADE_BANDS[i]!)}`} ${km.toFixed(1)}`);
  return `${line}; rideable km by grade: ${bands.join(', ')}`;
}

function lines(report: BuildReport): string[] {
  const s = report.statistics;
  const r = report.restrictions;
  const c = report.components;
  const skipped = Object.entries(r.skipped).map(([reason, count]) => `${count} ${reason}`).join('; ') || 'none';
  const kept = (list: typeof c.cycling.kept): string => list.map((k) => `${k.edges} edges around ${k.name || 'unnamed'} (${k.at.map((v) => v.toFixed(4)).join(', ')})`).join('; ');
  return [
    `Graph version: ${report.graph_version}`,
    `Sources: ${report.sources.map((source) => `${source.name} (${mb(source.bytes)}, ${source.new_ways} ways taken)`).join('; ')}`,
    `Nodes ${report.nodes}, directed edges ${report.edges}, segments ${report.segments}`,
    `Cycling, rideable km per safety class: ${classLine(s.cyclingKmByClass)} (total ${km(s.cyclingKm)} km; plus ${km(s.dismountKm)} km push-only footways and steps)`,
    // Reports of builds before the stress field have no figures.
    ...(s.cyclingKmByStress ? [`Cycling, rideable km per Level of Traffic Stress: ${[1, 2, 3, 4].map((level) => `LTS ${level} ${km(s.cyclingKmByStress[level]!)}`).join(', ')}`] : []),
    `Walking km: ${km(s.walkingKm)} (paths ${km(s.walkingKmByKind.path)}, roads with pavement tagged ${km(s.walkingKmByKind.pavement)}, carriageway fallback ${km(s.walkingKmByKind.carriageway)}, crossings ${km(s.walkingKmByKind.crossing)}); ${km(report.separate_pavements?.km ?? 0)} km of carriageway left out because a pavement is drawn alongside`,
    `Lit share of rideable km: ${percent(s.litShare)} (tagged lit=yes ${percent(s.litTaggedYesShare)}, any lit tag ${percent(s.litTaggedShare)}; lighting data: ${report.lighting_data ? 'yes' : 'no'})`,
    `On signed cycle routes: ${km(s.cycleRouteKm)} km; contraflow ${km(s.contraflowKm)} km; roadworks ${km(s.roadworksKm)} km; rough surface ${km(s.roughKm)} km`,
    `Approaches with control: ${Object.entries(s.approachesWith).map(([kind, count]) => `${kind} ${count}`).join(', ')}`,
    `Turn restrictions: ${r.relations} relations read, ${r.applied} applied as ${r.sequences} forbidden sequences (${r.conditional} time-limited, ${r.viaWay} via ways, ${r.bicycleSpecific} bicycle-specific, ${r.sameCyclewayExempt} same-cycleway exempt); skipped: ${skipped}`,
    `Closures: ${report.closures.ways} ways with time rules, ${report.closures.records} closure records`,
    `Connectivity, cycling: kept ${kept(c.cycling.kept)}; removed ${c.cycling.removed} components, ${km(c.cycling.removedKm)} km`,
    `Connectivity, walking: kept ${kept(c.walking.kept)}; removed ${c.walking.removed} components, ${km(c.walking.removedKm)} km`,
    elevationLine(report),
    `Ways outside the city boundary dropped: ${report.ways_outside_city}`,
    `Warnings: ${report.warnings.map((w) => `${w.count} ${w.key}${w.examples.length ? ` (e.g. ${w.examples.map((e) => JSON.stringify(e)).join(', ')})` : ''}`).join('; ') || 'none'}`,
    `Build: ${report.build_seconds.toFixed(2)} s (${(report.cpu_seconds ?? 0).toFixed(2)} s CPU), peak RSS ${report.peak_rss_mb} MB, output ${mb(report.output_bytes)}`,
    // Reports of builds before the stages were timed have no list.
    ...(report.stages ? [`Stages (wall seconds): ${report.stages.map((stage) => `${stage.name} ${stage.seconds.toFixed(2)}`).join(', ')}`] : []),
  ];
}

export function formatReport(report: BuildReport): string {
  const checks = report.spot_checks.map((check) =>
    `  ${check.label}: ${km(check.km)} km rideable — ${classLine(check.cyclingKmByClass)}${check.litShare === null ? '' : `, lit ${percent(check.litShare)}`} (expect ${check.expect})`);
  return [`== ${report.city_name} (${report.city}) ==`, ...lines(report).map((line) => `  ${line}`), ...(checks.length ? ['  Spot checks:', ...checks] : [])].join('\n');
}

export function markdownReport(reports: readonly BuildReport[]): string {
  const parts = [
    '# Graph build report',
    '',
    'Written by `npm run build-graphs` from the last build of each city (`cities/<city>/report.json` in the graph folder).',
    'Kilometres are street kilometres: a two-way street counts once. "Rideable" excludes footways and steps where the bike can only be pushed.',
    'Safety classes follow spec 1.1; how tags map to them is in docs/graph-format.md.',
    '',
  ];
  for (const report of reports) {
    parts.push(`## ${report.city_name} (\`${report.city}\`)`, '');
    const notes = cityNotes[report.city as keyof typeof cityNotes];
    if (notes) parts.push(notes, '');
    for (const line of lines(report)) parts.push(`- ${line}`);
    if (report.spot_checks.length > 0) {
      parts.push('', '| Spot check | Rideable km | ' + SAFETY_CLASSES.join(' | ') + ' | Lit | Expected |', '|---|---|' + SAFETY_CLASSES.map(() => '---|').join('') + '---|---|');
      for (const check of report.spot_checks) {
        parts.push(`| ${check.label} | ${km(check.km)} | ${SAFETY_CLASSES.map((name) => km(check.cyclingKmByClass[name])).join(' | ')} | ${check.litShare === null ? '–' : percent(check.litShare)} | ${check.expect} |`);
      }
    }
    parts.push('');
  }
  return parts.join('\n');
}

/** The repository's report: it describes the graphs every city's build makes from the shared data. */
export const REPOSITORY_REPORT = 'docs/graph-report.md';
export const REPORT_FILE_NAME = 'graph-report.md';

/**
 * Where a build writes its Markdown report: `--report` when given; the repository's
 * docs/graph-report.md only for a build of every city into the default graph folder; otherwise
 * the graph folder's own graph-report.md, so that a build of one city, or into another folder,
 * never rewrites the tracked report with part of the picture.
 */
export function reportDestination(input: { report?: string; out?: string; everyCity: boolean; outDir: string; projectRoot: string }): string {
  if (input.report) return resolve(input.report);
  if (input.out === undefined && input.everyCity) return join(input.projectRoot, REPOSITORY_REPORT);
  return join(input.outDir, REPORT_FILE_NAME);
}
