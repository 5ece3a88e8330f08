import httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { z } from 'zod';
import { InvalidRequestError, payloadTooLarge } from './errors.ts';
import { header } from './forms.ts';

/**
 * `multipart/form-data` request bodies (file uploads), parsed by middy's multipart body parser
 * (busboy underneath). API Gateway hands such bodies to the function base64-encoded (it is one
 * of the API's binary media types). A file part longer than the endpoint's limit is cut by the
 * parser and answered 413 here; anything that is not well-formed multipart is an invalid request
 * (400). The `multipartBody()` middleware (middleware/multipart-body.ts) calls it.
 */

export interface MultipartFile {
  filename: string;
  mimetype: string;
  encoding: string;
  truncated: boolean;
  content: Buffer;
}

/** One file part: what a handler's body schema names for each file field. */
export const multipartFile = (field: string) =>
  z.custom<MultipartFile>((value) => typeof value === 'object' && value !== null && !Array.isArray(value) && Buffer.isBuffer((value as MultipartFile).content), {
    error: (issue) =>
      Array.isArray(issue.input)
        ? `send exactly one file part named ${field}`
        : `required: send the file as a multipart/form-data part named ${field}`,
  });

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The parts of a multipart body: files as `MultipartFile`, other fields as strings. */
export async function parseMultipartBody(event: APIGatewayProxyEvent, maxFileBytes: number): Promise<Record<string, unknown>> {
  const contentType = header(event.headers, 'content-type');
  if (!contentType?.toLowerCase().startsWith('multipart/form-data') || event.body === null || event.body === undefined) {
    throw new InvalidRequestError('Request body must be multipart/form-data with a file part named file');
  }
  // The parser looks the header up by its two common spellings only.
  const parsedEvent = { ...event, headers: { ...event.headers, 'content-type': contentType } };
  const parser = httpMultipartBodyParser({ busboy: { limits: { fileSize: maxFileBytes, files: 4, fields: 20, parts: 24 } } });
  try {
    await parser.before!({ event: parsedEvent } as never);
  } catch {
    throw new InvalidRequestError('Request body is not well-formed multipart/form-data');
  }
  const parts = parsedEvent.body as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(parts)) {
    for (const part of Array.isArray(value) ? value : [value]) {
      if ((part as MultipartFile | undefined)?.truncated) {
        throw payloadTooLarge(`${field}: must be at most ${megabytes(maxFileBytes)}`);
      }
    }
  }
  return parts;
}
