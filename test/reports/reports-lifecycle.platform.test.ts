import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';
import type { AvoidanceItem } from '../../core/report-avoidances.ts';
import { auditEntry, auditTrail, insertReport } from '../../functions/reports/store.ts';
import { newRider, riderAccessToken } from '../oauth/oauth-support.ts';
import { admin, ALFRED_MEWS, bearer, enterpriseKey, fileReport, GOWER_STREET, inReview, keyed, pollReport, RUSSELL_SQUARE, storedReport } from './reports-support.ts';
import { useLocalAws } from '../support/running-platform.ts';

/**
 * A report's whole life on the running platform: filed over HTTP, analysed by the consumer of
 * the local queue, reviewed with the operator CLI, and what routing reads written or removed in
 * the same transaction as each decision.
 */

async function avoidanceOf(city: string, reportId: string): Promise<AvoidanceItem | undefined> {
  useLocalAws();
  const result = await dynamo().send(new GetCommand({ TableName: tableName('routeAvoidances'), Key: { city, report_id: reportId }, ConsistentRead: true }));
  return result.Item as AvoidanceItem | undefined;
}

/** A date a few days ahead, as a reviewer types it (local time). */
function daysAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe('the operator CLI prints what reporters wrote', () => {
  it('with control characters escaped, including text stored before the platform refused them', async () => {
    useLocalAws();
    const id = randomUUID();
    // Far in the future, so `list` shows it first; never queued, so analysis leaves it alone.
    const at = '2099-01-01T00:00:00.000Z';
    await insertReport(
      {
        report_id: id,
        status: 'received',
        created_at: at,
        updated_at: at,
        issue_type: 'other',
        issue_subtype: 'odd\u001b]0;title\u0007',
        location: RUSSELL_SQUARE,
        description: 'Gate locked\r\n2026-11-24 INFO report accepted by reviewer',
        road_name: 'Byng Place\u001b[31m',
        city: 'london',
        channel: 'api',
        key_id: 'controlchars0001',
        summary: 'Other problem\u009b2J',
      },
      auditEntry({ report_id: id, at, actor: 'api:controlchars0001', action: 'submit', from: null, to: 'received' }),
    );
    const shown = await admin('reports', 'show', id);
    const listed = await admin('reports', 'list', '--status', 'received', '--limit', '1');
    for (const output of [shown.stdout, listed.stdout]) {
      // The CLI's own line breaks, and no other control character.
      expect(output.replaceAll('\n', '')).not.toMatch(/\p{Cc}/u);
      expect(output).toContain('odd\\u001b]0;title\\u0007');
      expect(output).toContain('Other problem\\u009b2J');
    }
    expect(shown.stdout).toContain('road named by the reporter: Byng Place\\u001b[31m');
    expect(shown.stdout).toContain('description: Gate locked\\r\\n2026-11-24 INFO report accepted by reviewer');
    expect(listed.stdout).toContain(id);
  });
});

describe('the lifecycle of a report', () => {
  it('received, analysed to in_review by the queue consumer, accepted with the CLI, resolved: routing follows each decision', async () => {
    const rider = bearer(await riderAccessToken(await newRider()));
    const filed = await fileReport(rider, { issue_type: 'road_closed', issue_subtype: 'temporary_closure', location: GOWER_STREET, road_name: 'Gower St' });
    expect(filed.status).toBe(200);
    const id: string = filed.body.id;

    // Analysis: classified from the subtype, located on the named road, summarised, in_review.
    const analysed = await inReview(rider, id);
    expect(analysed.summary).toBe('Road closed (temporary closure) on Gower Street, London (a busy road); classified automatically; awaiting review.');
    expect(analysed.updated_at > analysed.created_at).toBe(true);
    const stored = await storedReport(id);
    expect(stored.analysis).toMatchObject({
      classified: true,
      road: { name: 'Gower Street', safety_class: 'busy' },
      road_name_check: 'matches',
    });
    expect(stored.outbox).toBeUndefined();
    expect(await avoidanceOf('london', id)).toBeUndefined();

    // Listed for review.
    const listed = await admin('reports', 'list', '--status', 'in_review', '--limit', '500');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(id);

    // Accepted until a local time in London: the avoidance is written with the status change.
    const until = `${daysAhead(3)}T18:30`;
    const accepted = await admin('reports', 'accept', id, '--note', 'Council notice seen', '--until', until);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/routing: closed on way \d+ in london until/);
    const afterAccept = await pollReport(rider, id, (body) => body.status === 'accepted', 2_000);
    expect(afterAccept.updated_at > analysed.updated_at).toBe(true);
    expect(afterAccept.summary).toBe(`Accepted: routes avoid Gower Street, London until ${until.replace('T', ' ')} London time.`);
    const avoidance = (await avoidanceOf('london', id))!;
    const untilInstant = DateTime.fromISO(until, { zone: 'Europe/London' });
    expect(avoidance).toMatchObject({
      city: 'london',
      report_id: id,
      effect: 'closed',
      issue_type: 'road_closed',
      issue_subtype: 'temporary_closure',
      location: GOWER_STREET,
      way_id: stored.analysis!.road!.way_id,
      road_name: 'Gower Street',
      until: untilInstant.toUTC().toISO({ suppressMilliseconds: true }),
      expires_at: untilInstant.toSeconds() + 86_400,
    });
    expect(avoidance.accepted_at).toBe(afterAccept.updated_at);

    // A second decision on the same report is refused: it is no longer in_review.
    const again = await admin('reports', 'reject', id, '--note', 'twice');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/is accepted; only a report in_review can be moved to rejected/);

    // Resolved: the avoidance goes with the status change.
    const resolved = await admin('reports', 'resolve', id, '--note', 'Reopened');
    expect(resolved.code, resolved.stderr).toBe(0);
    expect((await pollReport(rider, id, () => true)).status).toBe('resolved');
    expect(await avoidanceOf('london', id)).toBeUndefined();

    // The audit trail: who moved what, when.
    const trail = await auditTrail(id);
    expect(trail.map((entry) => [entry.actor, entry.from, entry.to])).toEqual([
      ['rider', null, 'received'],
      ['analysis', 'received', 'in_review'],
      ['reviewer:test-reviewer', 'in_review', 'accepted'],
      ['reviewer:test-reviewer', 'accepted', 'resolved'],
    ]);
    expect(trail[2]).toMatchObject({ note: 'Council notice seen', until: avoidance.until, at: afterAccept.updated_at });
    const shown = await admin('reports', 'show', id);
    expect(shown.stdout).toMatch(/reviewer:test-reviewer {2}in_review -> accepted until .* "Council notice seen"/);
  });

  it('a rejection carries the reviewer\'s reason to the submitter and writes nothing for routing', async () => {
    const key = keyed(await enterpriseKey());
    const { body } = await fileReport(key, { issue_type: 'road_unsafe', issue_subtype: 'too_many_vehicles', location: RUSSELL_SQUARE });
    await inReview(key, body.id);
    expect((await admin('reports', 'reject', body.id)).stderr).toMatch(/A note is required/);
    const rejected = await admin('reports', 'reject', body.id, '--note', 'Traffic was diverted for one day only.');
    expect(rejected.code, rejected.stderr).toBe(0);
    const after = await pollReport(key, body.id, () => true);
    expect(after).toMatchObject({ status: 'rejected', summary: 'Not accepted: Traffic was diverted for one day only.' });
    expect(await avoidanceOf('london', body.id)).toBeUndefined();
  });

  it('an accepted unsafe road is written for routing without an end; reports that change no routing write nothing', async () => {
    const key = keyed(await enterpriseKey());
    const unsafe = (await fileReport(key, { issue_type: 'road_unsafe', issue_subtype: 'poor_bike_lane', location: RUSSELL_SQUARE })).body.id;
    const unclear = (await fileReport(key, { issue_type: 'unclear_instructions', issue_subtype: 'wrong_direction', location: RUSSELL_SQUARE })).body.id;
    await inReview(key, unsafe);
    await inReview(key, unclear);
    expect((await admin('reports', 'accept', unsafe)).code).toBe(0);
    expect(await avoidanceOf('london', unsafe)).toMatchObject({ effect: 'unsafe', until: null });
    expect((await avoidanceOf('london', unsafe))!.expires_at).toBeUndefined();

    const withUntil = await admin('reports', 'accept', unclear, '--until', `${daysAhead(1)}T10:00`);
    expect(withUntil.code).toBe(2);
    expect(withUntil.stderr).toMatch(/--until applies only to reports that change routing/);
    expect((await admin('reports', 'accept', unclear)).code).toBe(0);
    expect(await avoidanceOf('london', unclear)).toBeUndefined();
    expect((await pollReport(key, unclear, () => true)).summary).toBe('Accepted: Unclear instructions (wrong direction) at Russell Square, London, confirmed by a reviewer.');
  });

  it('refuses an --until that has passed or is not a local time, and accepting before the analysis', async () => {
    const key = keyed(await enterpriseKey());
    const id = (await fileReport(key, { issue_type: 'road_closed', issue_subtype: 'barrier_gate', location: RUSSELL_SQUARE })).body.id;
    await inReview(key, id);
    expect((await admin('reports', 'accept', id, '--until', '2020-01-01T10:00')).stderr).toMatch(/has already passed/);
    expect((await admin('reports', 'accept', id, '--until', 'tomorrow')).stderr).toMatch(/must be YYYY-MM-DDTHH:mm/);
    expect((await admin('reports', 'accept', id, '--until', `${daysAhead(2)}T10:00Z`)).stderr).toMatch(/must be YYYY-MM-DDTHH:mm/);
    expect((await admin('reports', 'show', '00000000-0000-4000-8000-000000000000')).stderr).toMatch(/No report/);
    expect((await storedReport(id)).status).toBe('in_review');

    // A report the analysis has not reached yet (stored directly, never queued) cannot be decided.
    const waiting = await storedReport(id);
    const unanalysed = { ...waiting, report_id: randomUUID(), status: 'received' as const, summary: null, analysis: undefined, updated_at: waiting.created_at };
    await insertReport(unanalysed, auditEntry({ report_id: unanalysed.report_id, at: unanalysed.created_at, actor: 'test', action: 'submit', from: null, to: 'received' }));
    const early = await admin('reports', 'accept', unanalysed.report_id);
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/is received; only a report in_review can be moved to accepted/);
  });
});

describe('the analysis', () => {
  it('groups a repeated report of the same problem on the same road with the first one', async () => {
    const key = keyed(await enterpriseKey());
    const nearby: [number, number] = [RUSSELL_SQUARE[0] + 0.0002, RUSSELL_SQUARE[1]];
    const first = (await fileReport(key, { issue_type: 'unpleasant', issue_subtype: 'cobbles_rough', location: RUSSELL_SQUARE })).body.id;
    await inReview(key, first);
    const second = (await fileReport(key, { issue_type: 'unpleasant', issue_subtype: 'too_hilly', location: nearby })).body.id;
    const analysed = await inReview(key, second);
    const stored = await storedReport(second);
    const head = (await storedReport(first)).analysis!.duplicate_of ?? first;
    expect(stored.analysis!.duplicate_of).toBe(head);
    expect(stored.analysis!.similar_open_reports).toBeGreaterThanOrEqual(1);
    expect(analysed.summary).toMatch(/; reported before \(\d+ open reports? of it\); /);
    // Another category at the same place is another problem.
    const other = (await fileReport(key, { issue_type: 'bad_routing', issue_subtype: 'faster_route', location: RUSSELL_SQUARE })).body.id;
    await inReview(key, other);
    const otherStored = await storedReport(other);
    expect(otherStored.analysis!.duplicate_of === null || otherStored.analysis!.duplicate_of !== head).toBe(true);
  });

  it('leaves an unrecognised subtype to the reviewer, and says when the named road is not the one found', async () => {
    const key = keyed(await enterpriseKey());
    const id = (await fileReport(key, { issue_type: 'road_closed', issue_subtype: 'flooded', location: ALFRED_MEWS, road_name: 'Baker Street' })).body.id;
    const analysed = await inReview(key, id);
    expect(analysed.summary).toBe('Road closed on Alfred Mews, London (a quiet road); a reviewer will classify it; awaiting review.');
    expect((await storedReport(id)).analysis).toMatchObject({ classified: false, road_name_check: 'differs' });
  });

  it('takes a report outside the covered cities unlocated, and one far from any mapped road of its city', async () => {
    const key = keyed(await enterpriseKey());
    const paris = (await fileReport(key, { issue_type: 'other', location: [2.3522, 48.8566] })).body.id;
    expect((await inReview(key, paris)).summary).toBe('Other problem outside the covered cities; a reviewer will classify it; awaiting review.');
    expect(await storedReport(paris)).toMatchObject({ city: null, analysis: { road: null, road_name_check: 'not_located' } });
    // Greater London, but outside the sample extract of central London.
    const outskirts = (await fileReport(key, { issue_type: 'road_unsafe', issue_subtype: 'other', location: [-0.3, 51.45] })).body.id;
    expect((await inReview(key, outskirts)).summary).toBe('Unsafe road in London, not within 250 m of a mapped road; classified automatically; awaiting review.');
  });
});
