import { describe, expect, it } from 'vitest';
import { HttpError, httpErrorOf, InvalidRequestError } from '../../functions/http/errors.ts';
import { AuthorizeRefusal } from '../../functions/oauth/authorize.ts';
import { ConsentRefusal } from '../../functions/oauth/consent.ts';
import { OAuthError } from '../../platform/oauth-errors.ts';
import { DomainError, FieldValidationError, LimitReachedError, NotFoundError } from '../../platform/errors.ts';
import { GraphUnavailableError } from '../../core/routing/errors.ts';

/** The one mapping from what domain code and the HTTP chain throw to the caller's answer. */
describe('httpErrorOf', () => {
  it('gives each kind of domain refusal its status, with the message and the next step', () => {
    expect(httpErrorOf(new NotFoundError('User not found'))).toMatchObject({ status: 404, body: { error: 'User not found' } });
    const statuses = (['invalid', 'forbidden', 'not-found', 'conflict', 'expired'] as const).map(
      (kind) => httpErrorOf(new ConsentRefusal(kind, 'Title', 'Do this next.'), 'page')!.status,
    );
    expect(statuses).toEqual([400, 403, 404, 409, 410]);
    expect(httpErrorOf(new ConsentRefusal('expired', 'Expired', 'Start again.'), 'page')!.body).toEqual({ error: 'Expired', details: 'Start again.' });
    expect(httpErrorOf(new AuthorizeRefusal('response_type must be code.'), 'page')).toMatchObject({
      status: 400,
      body: { error: 'This app sent a sign-in request that cannot be accepted', details: 'response_type must be code.' },
    });
  });

  it('answers the refusals of uploads and allowances: too large, used up, failed', () => {
    expect(httpErrorOf(new DomainError('too-large', 'file: must be at most 4 MB'))).toMatchObject({ status: 413, body: { error: 'file: must be at most 4 MB' } });
    expect(httpErrorOf(new DomainError('failed', 'Upload failed'))).toMatchObject({ status: 500, body: { error: 'Upload failed' } });
    expect(httpErrorOf(new LimitReachedError('Rate limit exceeded: 100 images per 24 hours', 3_600))).toMatchObject({
      status: 429,
      body: { error: 'Rate limit exceeded: 100 images per 24 hours', retry_after_seconds: 3_600 },
      headers: { 'Retry-After': '3600' },
    });
  });

  it('maps each field to its messages for an input refused field by field (spec 7, profile update)', () => {
    const refusal = new FieldValidationError({ name: ['May not be blank.'], email: ['This field is read-only.'] });
    expect(refusal).toBeInstanceOf(DomainError);
    expect(httpErrorOf(refusal)).toMatchObject({
      status: 400,
      body: { name: ['May not be blank.'], email: ['This field is read-only.'], error: 'name: May not be blank.; email: This field is read-only.' },
    });
  });

  it('answers an invalid request in the endpoint’s dialect', () => {
    const invalid = new InvalidRequestError('coordinates: too few', 'coordinates: too few; profile: unknown');
    expect(httpErrorOf(invalid, 'api')).toMatchObject({ status: 400, body: { error: 'coordinates: too few', details: 'coordinates: too few; profile: unknown' } });
    expect(httpErrorOf(invalid, 'oauth')).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'coordinates: too few; profile: unknown' },
    });
    expect(httpErrorOf(invalid, 'page')).toMatchObject({ status: 400, body: { error: 'This request is not valid', details: 'coordinates: too few' } });
  });

  it('answers OAuth errors as RFC 6749 5.2 says, with a challenge for a client that failed to authenticate', () => {
    expect(httpErrorOf(new OAuthError('invalid_grant', 'The authorization code has expired'), 'oauth')).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The authorization code has expired' },
      headers: {},
    });
    expect(httpErrorOf(new OAuthError('invalid_client', 'Client authentication failed'), 'oauth')).toMatchObject({
      status: 401,
      headers: { 'WWW-Authenticate': 'Basic realm="spoke-oauth", charset="UTF-8"' },
    });
  });

  it('keeps the cause of an unavailable graph out of the answer', () => {
    const answer = httpErrorOf(new GraphUnavailableError('london', new Error('NoSuchKey: cities/london/current.json')))!;
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'ROUTING_UNAVAILABLE', details: 'No routing graph is available for london' });
    expect(JSON.stringify(answer.body)).not.toContain('NoSuchKey');
  });

  it('passes HTTP errors through and leaves faults to the boundary', () => {
    const refusal = new HttpError(405, { error: 'Method not allowed' });
    expect(httpErrorOf(refusal, 'page')).toBe(refusal);
    expect(httpErrorOf(new Error('ECONNRESET'))).toBeUndefined();
    expect(httpErrorOf(new TypeError('x is undefined'), 'oauth')).toBeUndefined();
  });
});
