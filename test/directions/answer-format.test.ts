import { describe, expect, it } from 'vitest';
import { requestedFormat } from '../../functions/directions/gpx-answer.ts';

/** Which format a directions request asks for (functions/directions/gpx-answer.ts): JSON unless it asks for GPX. */
describe('the format a directions request asks for', () => {
  const byAccept = (accept: string | undefined) => requestedFormat(undefined, accept === undefined ? {} : { Accept: accept });

  it('is GPX when the Accept header prefers application/gpx+xml, whatever the case of its name', () => {
    expect(byAccept('application/gpx+xml')).toBe('gpx');
    expect(requestedFormat(undefined, { accept: 'Application/GPX+XML; charset=utf-8' })).toBe('gpx');
    expect(byAccept('application/json;q=0.8, application/gpx+xml')).toBe('gpx');
    expect(byAccept('application/gpx+xml, */*;q=0.1')).toBe('gpx');
  });

  it('is JSON, as the spec answers, for no Accept header, JSON, anything, other types, or GPX ranked below JSON', () => {
    for (const accept of [undefined, '', 'application/json', '*/*', 'application/*', 'text/html', 'application/xml', 'application/gpx+xml;q=0', 'application/gpx+xml;q=0.5, application/json', 'application/gpx+xml;q=0.5, application/*;q=0.9']) {
      expect(byAccept(accept), String(accept)).toBe('json');
    }
  });

  it('follows the format field over the Accept header', () => {
    expect(requestedFormat('gpx', {})).toBe('gpx');
    expect(requestedFormat('gpx', { Accept: 'application/json' })).toBe('gpx');
    expect(requestedFormat('json', { Accept: 'application/gpx+xml' })).toBe('json');
  });
});
