import { describe, expect, it } from 'vitest';
import { oauthPrincipal, riderPrincipal, type ApiKeyPrincipal } from '../../functions/auth/principal.ts';
import { DomainError } from '../../platform/errors.ts';
import { parseAnalysisMessage } from '../../functions/reports/analysis-handler.ts';
import { attributionOf, mayRead, sourceProblem, submitterLabel } from '../../functions/reports/attribution.ts';
import { isRecognisedSubtype, ISSUE_TYPES } from '../../functions/reports/fields.ts';
import { MOVES, REPORT_STATUSES } from '../../functions/reports/lifecycle.ts';
import { chooseRoad, normaliseRoadName, sameRoad, type NearbyRoad } from '../../functions/reports/locate-report.ts';
import { analysisMessage } from '../../functions/reports/outbox.ts';
import { reportSubmissionScope, REPORT_SESSION_LIMITS } from '../../functions/reports/quota.ts';
import { untilInstant } from '../../functions/reports/review.ts';
import type { LocatedRoad, ReportItem } from '../../functions/reports/store.ts';
import { changeTime } from '../../functions/reports/store.ts';
import { acceptedSummary, analysisSummary, rejectedSummary } from '../../functions/reports/summary.ts';

/** The reports domain's rules, each on its own. */

const key = (overrides: Partial<ApiKeyPrincipal> = {}): ApiKeyPrincipal => ({
  kind: 'apikey',
  keyId: 'aaaa000000000001',
  plan: 'free',
  source: null,
  limits: { perMinute: 10, perHour: 100, perDay: 1000 },
  rateBucket: 'key:aaaa000000000001',
  ...overrides,
});

function report(overrides: Partial<ReportItem> = {}): ReportItem {
  return {
    report_id: '11111111-1111-4111-8111-111111111111',
    status: 'in_review',
    created_at: '2026-11-24T10:00:00.000Z',
    updated_at: '2026-11-24T10:00:01.000Z',
    issue_type: 'road_closed',
    issue_subtype: 'barrier_gate',
    location: [-0.131, 51.521],
    description: null,
    road_name: null,
    city: 'london',
    channel: 'api',
    key_id: 'aaaa000000000001',
    summary: null,
    ...overrides,
  };
}

const road = (name: string | null, distance: number, wayId = 1): LocatedRoad => ({
  way_id: wayId,
  name,
  safety_class: 'quiet',
  distance_metres: distance,
  point: [0, 0],
});
/** A road near a report, ridden or (a footway, a pedestrian area) pushed along. */
const nearby = (name: string | null, distance: number, wayId: number, ridden = true): NearbyRoad => ({ ...road(name, distance, wayId), ridden });
const stored = ({ ridden: _ridden, ...located }: NearbyRoad): LocatedRoad => located;

describe('subtypes', () => {
  it('recognises each category\'s own subtypes and `other` under every category', () => {
    for (const issueType of ISSUE_TYPES) expect(isRecognisedSubtype(issueType, 'other')).toBe(true);
    expect(isRecognisedSubtype('road_closed', 'one_way')).toBe(true);
    expect(isRecognisedSubtype('unpleasant', 'too_many_peds')).toBe(true);
    expect(isRecognisedSubtype('road_unsafe', 'too_many_peds')).toBe(true);
    expect(isRecognisedSubtype('road_unsafe', 'barrier_gate')).toBe(false);
    expect(isRecognisedSubtype('other', 'barrier_gate')).toBe(false);
    expect(isRecognisedSubtype('road_closed', 'Barrier_Gate')).toBe(false);
  });
});

describe('attribution and visibility', () => {
  const partner = key({ keyId: 'bbbb000000000002', plan: 'partner', source: 'acme' });
  const samePartner = key({ keyId: 'cccc000000000003', plan: 'partner', source: 'acme' });
  const rider = riderPrincipal('rider-1');
  const app = oauthPrincipal({ sub: 'rider-1', clientId: 'spc_app', scope: 'openid', grantId: 'g' });
  const otherApp = oauthPrincipal({ sub: 'rider-2', clientId: 'spc_app', scope: 'openid', grantId: 'g2' });

  it('attributes a report to the key and its source, to the rider, or to the rider and the app', () => {
    expect(attributionOf(partner)).toEqual({ channel: 'api', key_id: 'bbbb000000000002', source: 'acme' });
    expect(attributionOf(key())).toEqual({ channel: 'api', key_id: 'aaaa000000000001' });
    expect(attributionOf(rider)).toEqual({ channel: 'rider', rider_id: 'rider-1' });
    expect(attributionOf(app)).toEqual({ channel: 'app', rider_id: 'rider-1', client_id: 'spc_app' });
    // The audit trail names the key or the app, never the rider.
    expect(submitterLabel(attributionOf(app))).toBe('app:spc_app');
    expect(submitterLabel(attributionOf(rider))).toBe('rider');
  });

  it('lets each caller read exactly the reports the spec gives it', () => {
    const byPartner = report({ ...attributionOf(partner) });
    const byKey = report({ ...attributionOf(key()) });
    const byRider = report({ ...attributionOf(rider), key_id: undefined });
    const byApp = report({ ...attributionOf(app), key_id: undefined });
    expect(mayRead(partner, byPartner)).toBe(true);
    expect(mayRead(samePartner, byPartner)).toBe(true);
    expect(mayRead(key({ keyId: 'dddd000000000004', plan: 'partner', source: 'other' }), byPartner)).toBe(false);
    expect(mayRead(key(), byKey)).toBe(true);
    expect(mayRead(key({ keyId: 'eeee000000000005' }), byKey)).toBe(false);
    expect(mayRead(partner, byKey)).toBe(false);
    // A rider's reports, however filed, are the rider's alone.
    for (const own of [byRider, byApp]) {
      expect(mayRead(rider, own)).toBe(true);
      expect(mayRead(app, own)).toBe(true);
      expect(mayRead(otherApp, own)).toBe(false);
      expect(mayRead(key(), own)).toBe(false);
      expect(mayRead(partner, own)).toBe(false);
    }
    expect(mayRead(rider, byKey)).toBe(false);
  });

  it('checks source by caller: required and fixed for partner keys, optional for other keys, ignored for sessions', () => {
    expect(sourceProblem(partner, undefined)).toMatch(/required for partner keys/);
    expect(sourceProblem(partner, null)).toMatch(/required for partner keys/);
    expect(sourceProblem(partner, 'acme')).toBeNull();
    expect(sourceProblem(partner, 'acme-2')).toMatch(/must be "acme"/);
    expect(sourceProblem(partner, 'a')).toMatch(/2-32 characters/);
    expect(sourceProblem(key(), undefined)).toBeNull();
    expect(sourceProblem(key(), 'fine_slug-2')).toBeNull();
    expect(sourceProblem(key(), 'x'.repeat(33))).toMatch(/2-32 characters/);
    expect(sourceProblem(rider, 'NOT OK')).toBeNull();
    expect(sourceProblem(app, 17)).toBeNull();
  });
});

describe('the per-session report allowance', () => {
  it('is a set of windows per hash of the rider\'s token, one per rider and app for OAuth, and none for keys', () => {
    const session = reportSubmissionScope(riderPrincipal('r'), { Authorization: 'Bearer secret-token-value' });
    expect(session!.scope).toMatch(/^reports-[0-9a-f]{32}$/);
    expect(session!.scope).not.toContain('secret-token-value');
    expect(session!.limits).toEqual(REPORT_SESSION_LIMITS);
    expect(REPORT_SESSION_LIMITS.perHour).toBe(60);
    const other = reportSubmissionScope(riderPrincipal('r'), { authorization: 'Bearer another-token' });
    expect(other!.scope).not.toBe(session!.scope);
    const app = oauthPrincipal({ sub: 'r', clientId: 'spc_x', scope: '', grantId: 'g' });
    // The app's rate item is already per rider and app (principal.rateBucket); its tokens refresh hourly.
    expect(reportSubmissionScope(app, { Authorization: 'Bearer one' })).toEqual(reportSubmissionScope(app, { Authorization: 'Bearer two' }));
    expect(reportSubmissionScope(key(), { apikey: 'k' })).toBeNull();
  });
});

describe('locating on the named road', () => {
  it('compares road names without case, accents, punctuation or common abbreviations', () => {
    expect(normaliseRoadName('St. Martin\u2019s Ln')).toBe('street martins lane');
    expect(sameRoad("St Martin's Lane", 'St. Martins Ln')).toBe(true);
    expect(sameRoad('Gower St', 'Gower Street')).toBe(true);
    expect(sameRoad('gower street', 'A400 Gower Street')).toBe(true);
    expect(sameRoad('Avenida Álvarez', 'Avenida Alvarez')).toBe(true);
    expect(sameRoad('Gower Street', 'Gower Mews')).toBe(false);
    expect(sameRoad('Bow', 'Bow Street')).toBe(true);
    expect(sameRoad('Bo', 'Bow Street')).toBe(false);
  });

  it('prefers a road of the reported name a little farther away, and says when the name differs', () => {
    const roads = [nearby('Alfred Mews', 3, 1), nearby('Tottenham Court Road', 42, 2), nearby('Gower Street', 90, 3)];
    expect(chooseRoad(roads, null)).toEqual({ road: stored(roads[0]!), roadNameCheck: 'not_given', unlocated: null });
    expect(chooseRoad(roads, 'Tottenham Ct Rd')).toEqual({ road: stored(roads[1]!), roadNameCheck: 'matches', unlocated: null });
    expect(chooseRoad(roads, 'Gower St')).toEqual({ road: stored(roads[0]!), roadNameCheck: 'differs', unlocated: null });
    expect(chooseRoad([], 'Gower St')).toEqual({ road: null, roadNameCheck: 'not_located', unlocated: 'no_road_nearby' });
  });

  it('places a report about riding (closed, unsafe) on the ridden way, never the pedestrian area beside it', () => {
    // Byng Place: a pedestrian area 0.4 m from the point, the cycle track 2 m, the carriageway 4 m; all named Byng Place.
    const roads = [nearby('Byng Place', 0.4, 1, false), nearby('Byng Place', 2, 2), nearby('Byng Place', 4.3, 3), nearby('Torrington Square', 4.4, 4)];
    for (const issueType of ['road_closed', 'road_unsafe']) {
      expect(chooseRoad(roads, 'Byng Place', issueType).road?.way_id).toBe(2);
      expect(chooseRoad(roads, null, issueType).road?.way_id).toBe(2);
      expect(chooseRoad(roads, 'Torrington Sq', issueType)).toMatchObject({ road: { way_id: 4 }, roadNameCheck: 'matches' });
    }
    // Other categories are about the place: the nearest way, pushed or not.
    expect(chooseRoad(roads, null, 'unpleasant').road?.way_id).toBe(1);
    // A footway the reporter named, with no ridden way of that name near, is where the report is.
    const footway = [nearby('Malet Place', 1, 5, false), nearby('Gower Street', 6, 6)];
    expect(chooseRoad(footway, 'Malet Place', 'road_closed')).toMatchObject({ road: { way_id: 5 }, roadNameCheck: 'matches' });
    // No ridden way within the snapping margin of the nearest: the pushed way it is.
    expect(chooseRoad([nearby(null, 1, 7, false), nearby('Far Road', 80, 8)], null, 'road_closed').road?.way_id).toBe(7);
  });
});

describe('summaries', () => {
  const analysis = { analysed_at: 'x', classified: true, road: { ...road('Gower Street', 1), safety_class: 'busy' as const }, unlocated: null, road_name_check: 'not_given' as const, duplicate_of: null, similar_open_reports: 0 };

  it('say what, where, whether it repeats a report, and what happens next, without the submitter\'s text', () => {
    expect(analysisSummary(report(), analysis)).toBe('Road closed (barrier or gate) on Gower Street, London (a busy road); classified automatically; awaiting review.');
    expect(analysisSummary(report({ issue_subtype: 'my own words' }), { ...analysis, classified: false, similar_open_reports: 2 })).toBe(
      'Road closed on Gower Street, London (a busy road); reported before (2 open reports of it); a reviewer will classify it; awaiting review.',
    );
    expect(analysisSummary(report({ city: null }), { ...analysis, road: null, unlocated: 'outside_cities' })).toBe(
      'Road closed (barrier or gate) outside the covered cities; classified automatically; awaiting review.',
    );
    expect(analysisSummary(report(), { ...analysis, road: { ...road(null, 1), safety_class: 'shared' } })).toBe(
      'Road closed (barrier or gate) on an unnamed path shared with pedestrians in London; classified automatically; awaiting review.',
    );
  });

  it('say what routing does once accepted, and a rejection\'s reason', () => {
    const located = report({ analysis });
    expect(acceptedSummary(located, 'closed', '2026-12-01T18:00')).toBe('Accepted: routes avoid Gower Street, London until 2026-12-01 18:00 London time.');
    expect(acceptedSummary(located, 'one_way', null)).toBe('Accepted: routes no longer ride Gower Street, London against its one-way direction.');
    expect(acceptedSummary(located, 'unsafe', null)).toBe('Accepted: routing treats Gower Street, London as unsafe.');
    expect(rejectedSummary('Not a public road.')).toBe('Not accepted: Not a public road.');
  });
});

describe('review', () => {
  it('reads --until in the city\'s time zone, across summer time, as an instant', () => {
    const before = new Date('2026-01-01T00:00:00Z');
    expect(untilInstant(report(), '2026-07-01T18:30', before)).toBe('2026-07-01T17:30:00Z');
    expect(untilInstant(report(), '2026-12-01T18:30', before)).toBe('2026-12-01T18:30:00Z');
    expect(untilInstant(report({ city: 'new-york' }), '2026-07-01T18:30', before)).toBe('2026-07-01T22:30:00Z');
  });

  it('refuses an --until in the past, malformed, or for a report outside the cities', () => {
    const at = new Date('2026-07-01T17:31:00Z');
    expect(() => untilInstant(report(), '2026-07-01T18:30', at)).toThrow(/already passed/);
    expect(() => untilInstant(report(), '2026-07-01 18:30', at)).toThrow(/YYYY-MM-DDTHH:mm/);
    expect(() => untilInstant(report(), '2026-13-01T18:30', at)).toThrow(/not a valid date/);
    expect(() => untilInstant(report({ city: null }), '2026-07-02T18:30', at)).toThrow(DomainError);
  });

  it('moves the time of a change forward even when the clock is behind the last change', () => {
    expect(changeTime({ updated_at: '2026-11-24T10:00:00.000Z' }, new Date('2026-11-24T09:59:00.000Z'))).toBe('2026-11-24T10:00:00.001Z');
    expect(changeTime({ updated_at: '2026-11-24T10:00:00.000Z' }, new Date('2026-11-24T10:05:00.000Z'))).toBe('2026-11-24T10:05:00.000Z');
  });

  it('has every move between known statuses, the spec\'s among them', () => {
    for (const move of Object.values(MOVES)) {
      expect(REPORT_STATUSES).toContain(move.from);
      expect(REPORT_STATUSES).toContain(move.to);
    }
    expect(MOVES.analyse).toMatchObject({ from: 'received', to: 'in_review' });
    expect(MOVES.accept).toMatchObject({ from: 'in_review', to: 'accepted' });
  });
});

describe('analysis messages', () => {
  it('carry only the report id, and anything else is refused', () => {
    expect(JSON.parse(analysisMessage('abc'))).toEqual({ report_id: 'abc' });
    expect(parseAnalysisMessage(analysisMessage('abc'))).toEqual({ report_id: 'abc' });
    expect(() => parseAnalysisMessage('nope')).toThrow(/not JSON/);
    expect(() => parseAnalysisMessage('null')).toThrow(/no report_id/);
    expect(() => parseAnalysisMessage('{"report_id": 5}')).toThrow(/no report_id/);
  });
});
