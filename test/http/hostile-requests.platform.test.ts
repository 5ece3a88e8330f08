import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { app, png, signedInRider, type SignedInRider } from '../riders/rider-support.ts';
import { call, newKey, platform } from '../support/running-platform.ts';

/**
 * Single hostile requests that once took the whole local platform down or answered 502: field
 * names that middy's multipart parser turned into a throw inside a busboy event handler, a file
 * part without its closing boundary, and names and encodings the local gateway indexed or
 * decoded unguarded. Each must answer 4xx in the spec's `{error}` shape, and the platform must
 * keep answering afterwards.
 */

const BOUNDARY = 'spoke-hostile-boundary';

/** One multipart body from raw parts, each `[name, content, filename?]`; `close: false` leaves off the closing boundary. */
function multipart(parts: [string, string | Buffer, string?][], { close = true } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, content, filename] of parts) {
    const disposition = `form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}`;
    const type = filename ? 'Content-Type: image/png\r\n' : '';
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(content), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

async function upload(rider: SignedInRider, body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  const response = await fetch(`${platform.app_base_url}/user/upload-photo/`, {
    method: 'POST',
    headers: { ...rider.headers, 'Content-Type': contentType },
    body,
  });
  const text = await response.text();
  return { status: response.status, text };
}

/** The platform still serves: a public endpoint answers a well-formed request, and the process lives. */
async function expectPlatformAnswering(): Promise<void> {
  expect(() => process.kill(platform.pid, 0), 'the platform process is alive').not.toThrow();
  const response = await call('/events/nearby/?latitude=51.5246&longitude=-0.1337&radius=1000', { api: 'app' });
  expect(response.status).toBe(200);
}

function expectRefusal(response: { status: number; text: string }, status: number): void {
  expect(response.status, response.text).toBe(status);
  const body = JSON.parse(response.text) as Record<string, unknown>;
  expect(typeof body.error, response.text).toBe('string');
}

describe('multipart bodies that once ended the process', () => {
  const hostileFields: [string, [string, string][]][] = [
    ['constructor[]', [['constructor[]', 'x']]],
    ['__proto__[x]', [['__proto__[x]', 'x']]],
    ['toString[0]', [['toString[0]', 'x']]],
    ['hasOwnProperty[]', [['hasOwnProperty[]', 'x']]],
    ['a then a[]', [['a', 'x'], ['a[]', 'y']]],
    ['__proto__', [['__proto__', 'x']]],
  ];

  it.each(hostileFields)('a field named %s beside a valid file answers 400, and the platform keeps answering', async (_, fields) => {
    const rider = await signedInRider();
    const image = await png();
    const response = await upload(rider, multipart([...fields, ['file', image, 'photo.png']]));
    expectRefusal(response, 400);
    await expectPlatformAnswering();
  });

  it('a file part without its closing boundary answers 400, and the platform keeps answering', async () => {
    const rider = await signedInRider();
    const response = await upload(rider, multipart([['file', await png(), 'photo.png']], { close: false }));
    expectRefusal(response, 400);
    await expectPlatformAnswering();
  });

  it('a body cut off inside a part header answers 400', async () => {
    const rider = await signedInRider();
    const response = await upload(rider, Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; na`));
    expectRefusal(response, 400);
    await expectPlatformAnswering();
  });

  it('a part whose header is malformed answers 400 at once (not when the function times out)', async () => {
    const rider = await signedInRider();
    const response = await upload(rider, Buffer.from(`--${BOUNDARY}\r\nno header here\r\n--${BOUNDARY}--\r\n`));
    expectRefusal(response, 400);
    await expectPlatformAnswering();
  });

  it('after all of them, the same rider can still upload a photo', async () => {
    const rider = await signedInRider();
    const response = await upload(rider, multipart([['file', await png(), 'photo.png']]));
    expect(response.status, response.text).toBe(200);
  });
});

describe('the local gateway answers malformed names and encodings like API Gateway, never 502', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('a query parameter named %s', async (name) => {
    const anonymous = await call(`/reports/?${name}=1`, { method: 'POST', body: {} });
    expect(anonymous.status).toBe(401);
    const key = await newKey();
    const keyed = await call(`/reports/?${name}=1&${name}=2`, { method: 'POST', key, body: {} });
    expect(keyed.status).toBe(400);
    expect(keyed.body.error).toMatch(/^issue_type: required/);
    await expectPlatformAnswering();
  });

  it.each(['__proto__', 'constructor', 'toString'])('a request header named %s', async (name) => {
    const key = await newKey();
    const response = await call('/reports/', { method: 'POST', key, body: {}, headers: { [name]: '1' } });
    expect(response.status).toBe(400);
    await expectPlatformAnswering();
  });

  it.each([
    ['base', `/reports/%E0%A4%A/`],
    ['base', `/reports/%E0%A4%A`],
    ['app', `/user/routes/%ZZ/`],
    ['app', `/user/routes/%/`],
    ['base', `/directions/v2%C0/`],
  ] as const)('a path with malformed percent-encoding on %s: %s', async (api, path) => {
    const response = await call(path, { api });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.stringMatching(/percent-encoding/) });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    await expectPlatformAnswering();
  });

  it('a request target that is not a URL answers 400', async () => {
    const { port } = new URL(platform.base_url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(`GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain('{"error":"Malformed request target"}');
    await expectPlatformAnswering();
  });

  it('a body over 10 MB answers 413, headers over 16 KB 431, as limits API Gateway and Node set', async () => {
    const key = await newKey();
    const long = await call('/reports/', { method: 'POST', key, rawBody: 'x'.repeat(10 * 1024 * 1024 + 1), headers: { 'Content-Type': 'application/json' } });
    expect(long.status).toBe(413);
    expect(long.body).toEqual({ error: 'Request too long' });
    const big = await call('/reports/', { method: 'POST', key, body: {}, headers: { 'X-Padding': 'p'.repeat(20 * 1024) } }).catch((error: Error) => error);
    // The gateway's server answers 431 in the error shape and closes; the client may see the answer or the closed socket.
    if (!(big instanceof Error)) {
      expect(big.status).toBe(431);
      expect(big.body).toEqual({ error: 'Request header fields too large' });
    }
    await expectPlatformAnswering();
  });

  it('still decodes a well-formed encoded path segment', async () => {
    const key = await newKey();
    const response = await call(`/reports/${encodeURIComponent(randomUUID())}%2F/`, { key });
    expect(response.status).toBe(404);
  });
});

describe('names in a JSON body are field names like any other', () => {
  it('PATCH /user/ names __proto__, constructor and toString as unknown fields and changes nothing', async () => {
    const rider = await signedInRider();
    const before = (await app('/user/', rider)).body;
    const response = await app('/user/', rider, {
      method: 'PATCH',
      rawBody: '{"__proto__": {"name": "Polluted"}, "constructor": {"prototype": {"admin": true}}, "toString": "x"}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(400);
    for (const field of ['__proto__', 'constructor', 'toString']) {
      expect(Object.hasOwn(response.body, field), field).toBe(true);
      expect(response.body[field]).toEqual([expect.stringMatching(/^Unknown field/)]);
    }
    expect((await app('/user/', rider)).body).toEqual(before);
    await expectPlatformAnswering();
  });
});

describe('the local stand-ins for AWS services refuse what they do not understand', () => {
  it('the SQS endpoint knows only its own operations, not an object\'s', async () => {
    for (const operation of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const response = await fetch(platform.services.sqs, {
        method: 'POST',
        headers: { 'X-Amz-Target': `AmazonSQS.${operation}`, 'Content-Type': 'application/x-amz-json-1.0' },
        body: '{}',
      });
      expect(response.status, operation).toBe(400);
      expect(((await response.json()) as { __type: string }).__type).toBe('com.amazonaws.sqs#UnsupportedOperation');
    }
  });

  it('the DynamoDB endpoint answers a transaction whose body is not JSON 400, and keeps serving', async () => {
    const response = await fetch(platform.services.dynamodb, {
      method: 'POST',
      headers: { 'X-Amz-Target': 'DynamoDB_20120810.TransactWriteItems', 'Content-Type': 'application/x-amz-json-1.0' },
      body: '{"TransactItems": [',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { __type: string }).__type).toMatch(/#SerializationException$/);
    await expectPlatformAnswering();
  });

  it("the identity provider's admin API answers a body that is not JSON 400", async () => {
    const response = await fetch(`${platform.identity_provider.url}/admin/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${platform.identity_provider.admin_secret}`, 'Content-Type': 'application/json' },
      body: '{"email": ',
    });
    expect(response.status).toBe(400);
  });
});
