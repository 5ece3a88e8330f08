import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { z } from 'zod';
import { HttpError, InvalidRequestError, payloadTooLarge } from './errors.ts';
import { header } from './forms.ts';

/**
 * `multipart/form-data` request bodies (file uploads), parsed with busboy 1.x (not its fork
 * @fastify/busboy, which middy's parser used: a part whose header is malformed leaves that fork
 * waiting for ever, holding the function until its timeout). API Gateway hands such
 * bodies to the function base64-encoded (it is one of the API's binary media types), whole, so
 * the parser is fed the complete body at once. Nothing a client sends may end the process or
 * leak into an object's prototype:
 *
 * - every event handler is guarded and every stream busboy creates (the parser, each file part)
 *   has an `'error'` listener, so a truncated body is a refusal and not an unhandled error;
 * - part names are checked against a strict pattern before they are used (no bracket or array
 *   syntax: no endpoint needs it), and the parts are collected in a null-prototype object;
 * - a name sent twice, a part beyond the limits, or anything else busboy refuses answers 400; a
 *   file part longer than the endpoint's limit, or a text field longer than
 *   `MAX_FIELD_BYTES`, answers 413.
 *
 * The `multipartBody()` middleware (middleware/multipart-body.ts) calls it.
 */

export interface MultipartFile {
  filename: string;
  mimetype: string;
  encoding: string;
  content: Buffer;
}

export type MultipartParts = Record<string, string | MultipartFile>;

/** One file part: what a handler's body schema names for each file field. */
export const multipartFile = (field: string) =>
  z.custom<MultipartFile>((value) => typeof value === 'object' && value !== null && Buffer.isBuffer((value as MultipartFile).content), {
    error: `required: send the file as a multipart/form-data part named ${field}`,
  });

/** Plain names only: a letter, then letters, digits and underscores. */
export const PART_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** The parts a body may carry (API Gateway already caps the whole body). */
export const MULTIPART_LIMITS = { files: 4, fields: 20, parts: 24 } as const;
/** A text field longer than this answers 413; no endpoint takes long text in a form. */
export const MAX_FIELD_BYTES = 64 * 1024;

const NOT_MULTIPART = 'Request body must be multipart/form-data with a file part named file';
const MALFORMED = 'Request body is not well-formed multipart/form-data';

const sizeLabel = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;

/** The parts of a multipart body in a null-prototype object: files as `MultipartFile`, other fields as strings. */
export async function parseMultipartBody(event: APIGatewayProxyEvent, maxFileBytes: number): Promise<MultipartParts> {
  const contentType = header(event.headers, 'content-type');
  if (!contentType?.toLowerCase().startsWith('multipart/form-data') || !event.body) throw new InvalidRequestError(NOT_MULTIPART);
  const body = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // busboy marks a part truncated once it reaches the limit, so the limit is one byte past what is allowed.
      limits: { ...MULTIPART_LIMITS, fileSize: maxFileBytes + 1, fieldSize: MAX_FIELD_BYTES + 1 },
    });
  } catch {
    // No boundary, or a content type busboy does not parse.
    throw new InvalidRequestError(`${MALFORMED}: the Content-Type header needs a boundary`);
  }

  return new Promise<MultipartParts>((resolve, reject) => {
    const parts: MultipartParts = Object.create(null);
    const pending = new Set<string>();
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      if (error instanceof InvalidRequestError || error instanceof HttpError) reject(error);
      // busboy's own refusals: a body cut short, a malformed part header, ...
      else reject(new InvalidRequestError(/Unexpected end of form/.test(String((error as Error)?.message)) ? `${MALFORMED}: it ends before the closing boundary` : MALFORMED));
    };
    /** Runs an event handler so that nothing it throws escapes into the emitter. */
    const guarded =
      <A extends unknown[]>(handle: (...args: A) => void) =>
      (...args: A) => {
        try {
          if (!settled) handle(...args);
        } catch (error) {
          fail(error);
        }
      };
    /** A part's name, once: checked before it is used as a key. */
    const claim = (name: string | undefined) => {
      if (name === undefined || !PART_NAME.test(name)) {
        throw new InvalidRequestError(`${MALFORMED}: part names must be plain names of letters, digits and _ (no brackets), starting with a letter`);
      }
      if (name in parts || pending.has(name)) throw new InvalidRequestError(`${name}: sent more than once; send exactly one part named ${name}`);
      pending.add(name);
      return name;
    };
    const tooMany = guarded(() => {
      throw new InvalidRequestError(
        `${MALFORMED}: at most ${MULTIPART_LIMITS.files} files and ${MULTIPART_LIMITS.parts} parts in all`,
      );
    });

    parser.on('error', fail);
    parser.on('partsLimit', tooMany);
    parser.on('filesLimit', tooMany);
    parser.on('fieldsLimit', tooMany);
    parser.on(
      'field',
      guarded((name: string, value: string, info: busboy.FieldInfo) => {
        const field = claim(name);
        if (info.nameTruncated) throw new InvalidRequestError(`${MALFORMED}: a part name is too long`);
        if (info.valueTruncated) throw payloadTooLarge(`${field}: must be at most ${sizeLabel(MAX_FIELD_BYTES)}`);
        pending.delete(field);
        parts[field] = value;
      }),
    );
    parser.on('file', (name: string, stream: Readable & { truncated?: boolean }, { filename, encoding, mimeType }: busboy.FileInfo) => {
      // First, before anything can throw: a part cut short errors on its stream.
      stream.on('error', fail);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      guarded(() => {
        const field = claim(name);
        stream.on(
          'end',
          guarded(() => {
            if (stream.truncated) throw payloadTooLarge(`${field}: must be at most ${sizeLabel(maxFileBytes)}`);
            pending.delete(field);
            parts[field] = { filename: filename ?? '', mimetype: mimeType, encoding, content: Buffer.concat(chunks) };
          }),
        );
      })();
    });
    // 'close', not 'finish': busboy closes once every part, file streams included, has ended.
    parser.on(
      'close',
      guarded(() => {
        if (pending.size > 0) throw new InvalidRequestError(MALFORMED);
        settled = true;
        resolve(parts);
      }),
    );
    parser.end(body);
  });
}
