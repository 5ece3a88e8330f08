import type { APIGatewayProxyEvent } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError, InvalidRequestError } from '../../functions/http/errors.ts';
import { MAX_FIELD_BYTES, parseMultipartBody, type MultipartFile } from '../../functions/http/multipart.ts';

/**
 * The multipart parser on its own (functions/http/multipart.ts): what it returns for well-formed
 * bodies, and that any body at all, cut anywhere, settles as parts or as a 400/413 refusal,
 * never as another error, an exception escaping an event handler, or a promise left pending.
 */

const BOUNDARY = 'unit-boundary';
const MAX_FILE = 1024;

const event = (body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`): APIGatewayProxyEvent =>
  ({ headers: { 'Content-Type': contentType }, body: body.toString('base64'), isBase64Encoded: true }) as unknown as APIGatewayProxyEvent;

function form(parts: { name: string; content: string | Buffer; filename?: string }[], close = true): Buffer {
  const chunks = parts.flatMap(({ name, content, filename }) => [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n`),
    Buffer.from(content),
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...chunks, ...(close ? [Buffer.from(`--${BOUNDARY}--\r\n`)] : [])]);
}

/** Parses, and says how it settled: the parts, or the refusal's status and message. */
async function outcome(body: Buffer, contentType?: string): Promise<{ parts: Record<string, unknown> } | { status: number; error: string }> {
  let timer: NodeJS.Timeout | undefined;
  // A parser waiting for ever would hold a function until its timeout: give it 2 s, ample for a few KB.
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`parsing never settled: ${JSON.stringify(body.toString('latin1').slice(0, 200))}`)), 2_000);
  });
  try {
    return { parts: await Promise.race([parseMultipartBody(event(body, contentType), MAX_FILE), stuck]) };
  } catch (error) {
    if (error instanceof InvalidRequestError) return { status: 400, error: error.message };
    if (error instanceof HttpError) return { status: error.status, error: error.body.error };
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

describe('parseMultipartBody', () => {
  it('returns files and fields in an object without a prototype', async () => {
    const result = await outcome(form([{ name: 'note', content: 'hello' }, { name: 'file', content: 'bytes', filename: 'a.png' }, { name: 'constructor', content: 'x' }]));
    expect('parts' in result).toBe(true);
    const parts = (result as { parts: Record<string, unknown> }).parts;
    expect(Object.getPrototypeOf(parts)).toBeNull();
    expect(parts.note).toBe('hello');
    expect(parts.constructor).toBe('x');
    expect((parts.file as MultipartFile).content.toString()).toBe('bytes');
    expect((parts.file as MultipartFile).filename).toBe('a.png');
  });

  it.each(['constructor[]', '__proto__[x]', 'toString[0]', 'hasOwnProperty[]', '__proto__', 'a b', '1abc', '', 'x'.repeat(65)])(
    'refuses the part name %j with 400',
    async (name) => {
      expect(await outcome(form([{ name, content: 'x' }]))).toEqual({ status: 400, error: expect.stringMatching(/part names must be plain names/) });
    },
  );

  it('refuses a name sent twice, and a field then its bracket form', async () => {
    expect(await outcome(form([{ name: 'a', content: 'x' }, { name: 'a', content: 'y' }]))).toEqual({ status: 400, error: 'a: sent more than once; send exactly one part named a' });
    expect(await outcome(form([{ name: 'a', content: 'x' }, { name: 'a[]', content: 'y' }]))).toMatchObject({ status: 400 });
  });

  it('answers 413 for a file over the limit and for a text field over 64 KB', async () => {
    expect(await outcome(form([{ name: 'file', content: Buffer.alloc(MAX_FILE + 1), filename: 'a.png' }]))).toEqual({ status: 413, error: 'file: must be at most 1 KB' });
    expect(await outcome(form([{ name: 'file', content: Buffer.alloc(MAX_FILE), filename: 'a.png' }]))).toHaveProperty('parts');
    expect(await outcome(form([{ name: 'note', content: 'n'.repeat(MAX_FIELD_BYTES + 1) }]))).toEqual({ status: 413, error: 'note: must be at most 64 KB' });
  });

  it('refuses more parts than the limits with 400', async () => {
    const files = Array.from({ length: 5 }, (_, index) => ({ name: `f${index}`, content: 'x', filename: 'a.png' }));
    expect(await outcome(form(files))).toMatchObject({ status: 400, error: expect.stringMatching(/at most 4 files/) });
    const fields = Array.from({ length: 25 }, (_, index) => ({ name: `f${index}`, content: 'x' }));
    expect(await outcome(form(fields))).toMatchObject({ status: 400 });
  });

  it('refuses a part whose header is malformed, wherever the form ends', async () => {
    for (const text of [`--${BOUNDARY}\r\nxyz\r\n--${BOUNDARY}--`, `--${BOUNDARY}\r\nxyz--${BOUNDARY}\r\n--${BOUNDARY}--\r\n`]) {
      expect(await outcome(Buffer.from(text)), text).toMatchObject({ status: 400 });
    }
  });

  it('refuses a body without its closing boundary, and content types without a boundary', async () => {
    expect(await outcome(form([{ name: 'file', content: 'bytes', filename: 'a.png' }], false))).toEqual({
      status: 400,
      error: 'Request body is not well-formed multipart/form-data: it ends before the closing boundary',
    });
    for (const type of ['multipart/form-data', 'multipart/form-data; boundary=', 'application/json', 'text/plain']) {
      expect(await outcome(form([{ name: 'file', content: 'x', filename: 'a.png' }]), type), type).toMatchObject({ status: 400 });
    }
  });

  it('settles for a valid body cut at any byte, and for any bytes at all', async () => {
    const valid = form([{ name: 'note', content: 'hello' }, { name: 'file', content: Buffer.alloc(600, 7), filename: 'a.png' }]);
    for (let cut = 0; cut <= valid.length; cut++) {
      const result = await outcome(valid.subarray(0, cut));
      if ('status' in result) expect([400, 413]).toContain(result.status);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom(`--${BOUNDARY}\r\n`, `--${BOUNDARY}--`, '\r\n', 'Content-Disposition: form-data; name="file"; filename="a"\r\n', 'name=', '"'), fc.string({ unit: 'binary', maxLength: 40 })), { maxLength: 30 }),
        async (pieces) => {
          const result = await outcome(Buffer.from(pieces.join('')));
          if ('status' in result) expect([400, 413]).toContain(result.status);
        },
      ),
      { seed: 22, numRuns: 500 },
    );
  });
});
