import fc from 'fast-check';
import type { EndpointDefinition, HttpMethod } from '../../platform/endpoints.ts';

/**
 * Generated HTTP requests for the fuzz test (fuzz.test.ts): for one endpoint of the endpoint
 * table, a method, a path (its templates with generated parameters), a query string, headers and
 * a body, each drawn from what an attacker would try: prototype names (`__proto__`,
 * `constructor[]`) as keys, field and part names, deep nesting, huge arrays, bad
 * percent-encodings, truncated and mislabelled bodies, wrong content types. Beside the hostile
 * values each endpoint has a request that passes validation, which the generator mutates, so
 * that many requests reach the handler and the domain behind it.
 */

export interface FuzzRequest {
  method: string;
  /** Path and query exactly as sent (not normalised, not re-encoded). */
  target: string;
  headers: [string, string][];
  body: Buffer | null;
}

export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'] as const;

/** Field, parameter and part names the endpoints read, so generated requests hit real fields. */
const KNOWN_NAMES = [
  'coordinates', 'profile', 'supersafe', 'bearing', 'departure_time', 'language', 'nighttime', 'start', 'end', 'origin', 'destination',
  'start_name', 'end_name', 'stops', 'event_id', 'destination_id', 'parking_type', 'operator', 'issue_type', 'issue_subtype', 'location',
  'description', 'road_name', 'source', 'name', 'image_url', 'home_address', 'home_coords', 'work_address', 'work_coords', 'polyline',
  'date_started', 'local_timezone', 'distance_traveled', 'duration_traveled', 'completed', 'destination_name', 'destination_address',
  'file', 'q', 'page', 'limit', 'latitude', 'longitude', 'lat', 'lon', 'lng', 'radius', 'city', 'area', 'categories', 'client_id',
  'client_secret', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'nonce', 'grant_type',
  'code', 'code_verifier', 'refresh_token', 'token', 'token_type_hint', 'request', 'csrf', 'action', 'email', 'password',
] as const;

/** Percent-encoding of the text's UTF-8 bytes; unlike encodeURIComponent it takes lone surrogates too. */
const percentEncoded = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

const BAD_PERCENT = ['%', '%%', '%E0%A4%A', '%ZZ', '%C0%AF', '%ED%A0%80', '%FF', '%00', '%2', '%u0041', '%2F', '%5C..%5C'] as const;

/** Names as an attacker sends them: prototype names, with bracket syntax, real field names, noise. */
export const hostileName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES),
  fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES, ...KNOWN_NAMES, 'a'), fc.constantFrom('[]', '[x]', '[0]', '[__proto__]', '.x', '[][]')).map(([name, suffix]) => `${name}${suffix}`),
  fc.constantFrom(...KNOWN_NAMES),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** Text values: ordinary, hostile, long (up to `longest`), with control and non-BMP characters. */
const textUpTo = (longest: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.constantFrom(...PROTOTYPE_NAMES, '\u0000', '\u001b[31m', '\r\n', '\uffff', '\ud800', '🚲'.repeat(3), ''),
    fc.integer({ min: 1_000, max: longest }).map((length) => 'x'.repeat(length)),
  );
const hostileText = textUpTo(70_000);
/**
 * In a URL: API Gateway takes at most 10,240 bytes of request line and headers together (a
 * longer one never reaches a function), so query values stay well under it.
 */
const urlText = textUpTo(2_000);

/** JSON values with prototype names among the keys. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), hostileText),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileName, tie('value'), { maxKeys: 5 }),
  ),
})).value;

const coordinateValue: fc.Arbitrary<unknown> = fc.oneof(
  // Mostly in central London, where routes exist.
  fc.tuple(fc.double({ min: -0.16, max: -0.09, noNaN: true }), fc.double({ min: 51.5, max: 51.53, noNaN: true })),
  fc.tuple(fc.double({ noNaN: false }), fc.double({ noNaN: false })),
  fc.tuple(fc.integer({ min: -200, max: 200 }), fc.integer({ min: -100, max: 100 })),
  hostileJson,
);

/** A request each endpoint accepts, for the generator to mutate. */
const VALID_BODIES: Readonly<Record<string, Record<string, unknown>>> = {
  directions: { coordinates: [[-0.1337, 51.5246], [-0.1246, 51.5219]] },
  'multi-modal': { start: [-0.1337, 51.5246], end: [-0.1246, 51.5219] },
  'explain-supersafe': { coordinates: [[-0.1337, 51.5246], [-0.1246, 51.5219]] },
  'reports-submit': { issue_type: 'road_closed', issue_subtype: 'barrier_gate', location: [-0.1246, 51.5219] },
  'user-profile': { home_address: '1 Fuzz Street' },
  'user-rides': {
    polyline: '_p~iF~ps|U_ulLnnqC',
    date_started: '2026-03-02T08:15:00Z',
    distance_traveled: 1250,
    duration_traveled: 420,
  },
};

const VALID_QUERIES: Readonly<Record<string, [string, string][]>> = {
  'bikes-nearby': [['latitude', '51.5246'], ['longitude', '-0.1337']],
  'events-nearby': [['latitude', '51.5246'], ['longitude', '-0.1337'], ['radius', '3000']],
  'user-search': [['q', 'rider']],
  'user-rides': [['page', '1'], ['limit', '10']],
  'oauth-authorize': [['response_type', 'code'], ['client_id', 'spc_fuzz'], ['redirect_uri', 'http://localhost:8976/callback'], ['code_challenge', 'x'.repeat(43)], ['code_challenge_method', 'S256'], ['state', 's']],
};

/** The valid body with some fields replaced by hostile values and hostile keys added. */
function mutatedBody(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const names = Object.keys(valid);
  return fc
    .tuple(
      fc.subarray(names),
      fc.array(fc.oneof(hostileJson, coordinateValue), { minLength: names.length, maxLength: names.length }),
      fc.array(fc.tuple(hostileName, hostileJson), { maxLength: 3 }),
    )
    .map(([replaced, values, extra]) => {
      const body: Record<string, unknown> = Object.create(null);
      for (const [index, name] of names.entries()) body[name] = replaced.includes(name) ? values[index] : valid[name];
      for (const [name, value] of extra) body[name] = value;
      return body;
    });
}

/** JSON text: the valid body mutated, any value, deep nesting, huge arrays, truncated, not JSON at all. */
function jsonText(endpointId: string): fc.Arbitrary<string> {
  const valid = VALID_BODIES[endpointId];
  const whole = valid ? fc.oneof(mutatedBody(valid), hostileJson) : hostileJson;
  return fc.oneof(
    { arbitrary: whole.map((value) => JSON.stringify(value) ?? 'null'), weight: 6 },
    fc.integer({ min: 1_000, max: 200_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    fc.integer({ min: 1_000, max: 100_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
    fc.integer({ min: 26, max: 150_000 }).map((count) => `{"coordinates":[${'[-0.13,51.52],'.repeat(count)}[-0.12,51.52]]}`),
    fc.integer({ min: 1_000, max: 150_000 }).map((count) => `{"stops":[${'[1e999,"x"],'.repeat(count)}0]}`),
    fc.tuple(whole.map((value) => JSON.stringify(value) ?? 'null'), fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
    fc.constantFrom('', ' ', 'null', '[]', '"text"', '1e999', '{"__proto__": {"admin": true}}', '{"constructor": {"prototype": {}}}', '\ufeff{}', '{"a":1,"a":2}'),
    fc.string({ unit: 'binary', maxLength: 64 }),
  );
}

function formText(endpointId: string): fc.Arbitrary<string> {
  const pairs = fc.array(
    fc.tuple(fc.oneof(hostileName.map(percentEncoded), fc.constantFrom(...BAD_PERCENT)), fc.oneof(hostileText.map(percentEncoded), fc.constantFrom(...BAD_PERCENT))),
    { maxLength: 8 },
  );
  const valid = endpointId === 'oauth-token' ? 'grant_type=authorization_code&code=abc&redirect_uri=http%3A%2F%2Flocalhost%3A8976%2Fcallback&code_verifier=v&client_id=spc_fuzz' : '';
  return fc.oneof(
    pairs.map((list) => list.map(([name, value]) => `${name}=${value}`).join('&')),
    pairs.map((list) => [valid, ...list.map(([name, value]) => `${name}=${value}`)].filter(Boolean).join('&')),
  );
}

const BOUNDARY = 'spoke-fuzz-boundary';

/** A tiny valid PNG (1x1), so some uploads get as far as the image pipeline. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc0000003010100c9fe92ef0000000049454e44ae426082', 'hex');

/** A multipart body: parts with hostile names, files and fields, closed or cut short; or an upload that should pass. */
const multipartBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc.array(fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/), content: hostileText }), { maxLength: 3 }).map((fields) =>
    Buffer.concat([
      ...fields.map(({ name, content }) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name === 'file' ? 'note' : name}"\r\n\r\n${content}\r\n`)),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
      PNG,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  ),
  hostileMultipartBody(),
);

function hostileMultipartBody(): fc.Arbitrary<Buffer> {
  return fc
  .tuple(
    fc.array(
      fc.record({
        name: fc.oneof(hostileName, fc.constant('file')),
        file: fc.boolean(),
        content: fc.oneof(fc.constant(PNG), fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)), hostileText.map((text) => Buffer.from(text))),
        quote: fc.boolean(),
        // Sometimes a part header that is not one: no colon, no disposition, binary noise.
        brokenHeader: fc.option(fc.oneof(fc.constantFrom('no header here', 'Content-Disposition', 'Content-Disposition: attachment', ':'), fc.string({ unit: 'binary', maxLength: 30 })), { freq: 4 }),
      }),
      { maxLength: 30 },
    ),
    fc.constantFrom('close', 'open', 'cut', 'garbage'),
  )
  .map(([parts, ending]) => {
    const chunks: Buffer[] = [];
    for (const part of parts) {
      const name = part.quote ? `"${part.name}"` : part.name;
      const disposition = `form-data; name=${name}${part.file ? '; filename="photo.png"' : ''}`;
      const header = part.brokenHeader ?? `Content-Disposition: ${disposition}\r\n${part.file ? 'Content-Type: image/png\r\n' : ''}`;
      chunks.push(Buffer.from(`--${BOUNDARY}\r\n${header}\r\n`), part.content, Buffer.from('\r\n'));
    }
    if (ending === 'close') chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
    const body = Buffer.concat(chunks);
    if (ending === 'cut') return body.subarray(0, Math.floor(body.length / 2));
    if (ending === 'garbage') return Buffer.concat([body, Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; na`)]);
    return body;
  });
}

const contentType: fc.Arbitrary<string | null> = fc.oneof(
  fc.constant(null),
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/x-www-form-urlencoded',
    `multipart/form-data; boundary=${BOUNDARY}`,
    'multipart/form-data',
    'multipart/form-data; boundary=',
    `multipart/form-data; boundary="${BOUNDARY}"`,
    'multipart/form-data; boundary=other-boundary',
    'multipart/mixed; boundary=x',
    'text/plain',
    'image/png',
    'application/octet-stream',
    'application/xml',
    '*/*',
    ';;;',
  ),
  fc.string({ maxLength: 30 }).filter((text) => /^[\x20-\x7e]*$/.test(text)),
);

/** What a body is sent as: mostly what the endpoint reads, often something else (mislabelled). */
function bodyAndType(definition: EndpointDefinition): fc.Arbitrary<{ body: Buffer | null; type: string | null }> {
  const multipart = definition.id === 'user-photo';
  const form = ['oauth-token', 'oauth-revoke', 'oauth-consent'].includes(definition.id);
  const native = multipart
    ? multipartBody.map((body) => ({ body, type: `multipart/form-data; boundary=${BOUNDARY}` as string | null }))
    : form
      ? formText(definition.id).map((text) => ({ body: Buffer.from(text), type: 'application/x-www-form-urlencoded' as string | null }))
      : jsonText(definition.id).map((text) => ({ body: Buffer.from(text), type: 'application/json' as string | null }));
  const anyBody = fc.oneof(
    jsonText(definition.id).map((text) => Buffer.from(text)),
    formText(definition.id).map((text) => Buffer.from(text)),
    multipartBody,
    fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
  );
  return fc.oneof(
    { arbitrary: native, weight: 4 },
    fc.record({ body: anyBody.map((body): Buffer | null => body), type: contentType }),
    fc.constant({ body: null, type: null }),
  );
}

/** A path parameter: a valid-looking id, hostile names, bad percent-encodings, very long. */
const pathParameter: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.nat().map(String),
  fc.constantFrom(...PROTOTYPE_NAMES, ...BAD_PERCENT, '..', '.', '%2e%2e', 'a%2Fb', '%20', '-1', '1e999', '0x10', ''),
  fc.string({ maxLength: 16 }).map(percentEncoded),
  fc.integer({ min: 100, max: 2_000 }).map((length) => 'a'.repeat(length)),
);

/** Paths of the endpoint: its templates (aliases too) with parameters filled in, with or without the trailing slash. */
function pathOf(definition: EndpointDefinition): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...definition.paths), pathParameter, fc.boolean()).map(([template, parameter, slash]) => {
    const path = template.replace(/\{[^}]+\}/g, parameter);
    return slash ? `${path}/` : path;
  });
}

const queryString = (definition: EndpointDefinition): fc.Arbitrary<string> => {
  const valid = VALID_QUERIES[definition.id] ?? [];
  const pair = fc.tuple(
    fc.oneof(hostileName.map(percentEncoded), fc.constantFrom(...BAD_PERCENT), fc.constantFrom(...PROTOTYPE_NAMES)),
    fc.oneof(urlText.map(percentEncoded), fc.constantFrom(...BAD_PERCENT), fc.double().map(String)),
  );
  return fc
    .tuple(fc.subarray(valid), fc.array(pair, { maxLength: 6 }), fc.boolean())
    .map(([kept, extra, repeat]) => {
      const pairs = [...kept, ...extra, ...(repeat ? kept : [])];
      return pairs.length ? `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}` : '';
    });
};

/** Header names a client cannot send or that only the transport sets are left out. */
const TRANSPORT_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect', 'te', 'trailer', 'content-type', 'x-spoke-test-clock-offset']);
const headerName = fc
  .oneof(fc.constantFrom(...PROTOTYPE_NAMES, 'Idempotency-Key', 'Cookie', 'Authorization', 'apikey', 'Origin', 'X-Forwarded-Proto'), fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/))
  .filter((name) => !TRANSPORT_HEADERS.has(name.toLowerCase()));
const headerValue = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
  fc.constantFrom(...BAD_PERCENT, 'Bearer', 'Bearer x.y.z', 'Basic %%%', 'Basic Og==', '"quoted"', 'a=%ZZ; b=%E0%A4%A'),
  fc.uuid(),
);

export interface Credentials {
  /** Headers of an API key (for `credential` endpoints) and of a signed-in rider (for `rider` endpoints). */
  apiKey: [string, string][];
  rider: [string, string][];
}

/** One request for `definition`: usually its own methods and credentials, sometimes neither. */
export function fuzzRequest(definition: EndpointDefinition, credentials: Credentials): fc.Arbitrary<FuzzRequest> {
  const own = definition.auth === 'credential' ? credentials.apiKey : definition.auth === 'rider' ? credentials.rider : [];
  const methods: readonly (HttpMethod | 'HEAD')[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];
  return fc
    .record({
      method: fc.oneof({ arbitrary: fc.constantFrom(...definition.methods), weight: 5 }, fc.constantFrom(...methods)),
      path: pathOf(definition),
      query: queryString(definition),
      credential: fc.oneof({ arbitrary: fc.constant(own), weight: 5 }, fc.constant(credentials.apiKey), fc.constant(credentials.rider), fc.constant([])),
      extraHeaders: fc.array(fc.tuple(headerName, headerValue), { maxLength: 5 }),
      payload: bodyAndType(definition),
    })
    .map(({ method, path, query, credential, extraHeaders, payload }) => {
      const headers: [string, string][] = [...credential, ...extraHeaders];
      if (payload.type !== null) headers.push(['Content-Type', payload.type]);
      return described({ method, target: `${path}${query}`, headers, body: payload.body });
    });
}

/** How a failing request reads in fast-check's report: short, whatever its size. */
export function describeRequest(request: FuzzRequest): string {
  const target = request.target.length > 300 ? `${request.target.slice(0, 300)}… (${request.target.length} characters)` : request.target;
  const body = request.body
    ? `${JSON.stringify(request.body.subarray(0, 300).toString('latin1'))}${request.body.length > 300 ? `… (${request.body.length} bytes)` : ''}`
    : 'no body';
  const headers = request.headers.map(([name, value]) => `${name}: ${value.slice(0, 80)}`).join(' | ');
  return `${request.method} ${target} [${headers}] ${body}`;
}

const described = (request: FuzzRequest): FuzzRequest => Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });

/** A request to a path no endpoint defines. */
export const unknownPathRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    segments: fc.array(fc.oneof(pathParameter, fc.constantFrom('directions', 'v3', 'reports', 'user', 'auth', 'v1')), { minLength: 1, maxLength: 5 }),
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
    body: fc.option(jsonText('none').map((text) => Buffer.from(text)), { nil: null }),
  })
  .map(({ segments, method, body }) => described({ method, target: `/${segments.join('/')}`, headers: [['Content-Type', 'application/json']], body }));
