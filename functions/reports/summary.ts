import { cities } from '../../core/cities/index.ts';
import type { SafetyClass } from '../../core/graph/flags.ts';
import type { AvoidanceEffect } from '../../core/report-avoidances.ts';
import { isRecognisedSubtype, ISSUE_TYPE_LABELS, SUBTYPE_LABELS } from './fields.ts';
import { MAX_SNAP_METRES } from '../../core/routing/snap/snap.ts';
import type { ReportAnalysis, ReportItem } from './store.ts';

/**
 * The one-line `summary` a submitter polls for (spec 2.5): written by the analysis, rewritten by
 * each review decision. It never repeats the submitter's free text or names another report.
 */

/** "Road closed (barrier or gate)"; an unrecognised subtype is not repeated. */
export function problemLabel(report: Pick<ReportItem, 'issue_type' | 'issue_subtype'>): string {
  const subtype = report.issue_subtype;
  const recognised = subtype !== null && isRecognisedSubtype(report.issue_type, subtype) && subtype !== 'other';
  return `${ISSUE_TYPE_LABELS[report.issue_type]}${recognised ? ` (${SUBTYPE_LABELS[subtype]})` : ''}`;
}

/** What each safety class is (spec 1.1), as a summary names a road of it. */
const CLASS_NOUNS: Readonly<Record<SafetyClass, string>> = {
  quiet: 'quiet road',
  cycleway: 'cycleway',
  moderate: 'moderately busy road',
  busy: 'busy road',
  shared: 'path shared with pedestrians',
};

/** "Gower Street, London" or "an unnamed cycleway in London"; null when the report was not located. */
export function placeLabel(report: Pick<ReportItem, 'city'>, analysis: Pick<ReportAnalysis, 'road'> | undefined): string | null {
  const road = analysis?.road;
  if (!road || !report.city) return null;
  const city = cities[report.city].name;
  return road.name ? `${road.name}, ${city}` : `an unnamed ${CLASS_NOUNS[road.safety_class]} in ${city}`;
}

function whereLabel(report: ReportItem, analysis: ReportAnalysis): string {
  const place = placeLabel(report, analysis);
  if (place && analysis.road?.name) return `on ${place} (a ${CLASS_NOUNS[analysis.road.safety_class]})`;
  if (place) return `on ${place}`;
  if (!report.city) return 'outside the covered cities';
  const city = cities[report.city].name;
  return analysis.unlocated === 'no_graph'
    ? `in ${city}, not located on a road: the city's map was unavailable`
    : `in ${city}, not within ${MAX_SNAP_METRES} m of a mapped road`;
}

export function analysisSummary(report: ReportItem, analysis: ReportAnalysis): string {
  const parts = [`${problemLabel(report)} ${whereLabel(report, analysis)}`];
  if (analysis.similar_open_reports > 0) {
    parts.push(`reported before (${analysis.similar_open_reports} open ${analysis.similar_open_reports === 1 ? 'report' : 'reports'} of it)`);
  }
  parts.push(analysis.classified ? 'classified automatically' : 'a reviewer will classify it');
  return `${parts.join('; ')}; awaiting review.`;
}

/** What routing does once a report is accepted, as the summary says it. */
function effectSentence(effect: AvoidanceEffect, place: string): string {
  switch (effect) {
    case 'closed':
      return `routes avoid ${place}`;
    case 'one_way':
      return `routes no longer ride ${place} against its one-way direction`;
    case 'no_manoeuvre':
      return `routes no longer turn onto ${place} there`;
    case 'unsafe':
      return `routing treats ${place} as unsafe`;
  }
}

/** `untilLocal`: the end as the reviewer gave it, in the city's time. */
export function acceptedSummary(report: ReportItem, effect: AvoidanceEffect | null, untilLocal: string | null): string {
  const place = placeLabel(report, report.analysis) ?? (report.city ? `the reported place in ${cities[report.city].name}` : 'the reported place');
  if (!effect) return `Accepted: ${problemLabel(report)} at ${place}, confirmed by a reviewer.`;
  const until = untilLocal && report.city ? ` until ${untilLocal.replace('T', ' ')} ${cities[report.city].name} time` : '';
  return `Accepted: ${effectSentence(effect, place)}${until}.`;
}

/** The reviewer's note is the reason the submitter reads (docs/reports.md, "Review"). */
export const rejectedSummary = (note: string): string => `Not accepted: ${note}`;

export function resolvedSummary(report: ReportItem, changedRouting: boolean): string {
  const place = placeLabel(report, report.analysis) ?? 'the reported place';
  return `Resolved: the problem at ${place} is gone${changedRouting ? '; routes use it again' : ''}.`;
}
