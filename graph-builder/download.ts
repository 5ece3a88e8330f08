import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream/promises';

/**
 * Downloading an OSM extract for the nightly build: streamed to a file (an extract of a few
 * hundred MB never sits in memory), bounded by a connect timeout and a total timeout (a server
 * that accepts and then stalls fails the city instead of holding it until the function's own
 * limit), and conditional: the validators the previous build recorded go out as `If-None-Match`
 * and `If-Modified-Since`, and a 304 downloads nothing.
 */

export interface DownloadLimits {
  /** From the request until the connection (TLS included) is up. */
  readonly connectTimeoutMs: number;
  /** From the request until the last byte is on disk. */
  readonly totalTimeoutMs: number;
}

/** What a server said about the version it sent, kept to ask "changed since?" next time. */
export interface SourceValidators {
  readonly etag?: string;
  readonly lastModified?: string;
}

export type DownloadResult =
  | { readonly status: 'downloaded'; readonly bytes: number; readonly validators: SourceValidators }
  | { readonly status: 'not-modified' };

const MAX_REDIRECTS = 5;

/** Thrown for every way a download fails; the message names the URL and the cause. */
export class DownloadError extends Error {}

function validatorsOf(response: IncomingMessage): SourceValidators {
  const etag = response.headers.etag;
  const lastModified = response.headers['last-modified'];
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

function conditionalHeaders(validators: SourceValidators | undefined): Record<string, string> {
  return {
    ...(validators?.etag ? { 'If-None-Match': validators.etag } : {}),
    ...(validators?.lastModified ? { 'If-Modified-Since': validators.lastModified } : {}),
  };
}

/**
 * Fetches `url` into `path`. With `validators`, a 304 answer is `not-modified` and leaves no file.
 * Any other status but 200 (after up to five redirects), a connect or total timeout, or a broken
 * stream throws DownloadError and removes the partial file.
 */
export async function downloadToFile(url: string, path: string, limits: DownloadLimits, validators?: SourceValidators): Promise<DownloadResult> {
  const deadline = Date.now() + limits.totalTimeoutMs;
  try {
    return await fetchFollowingRedirects(url, path, limits, deadline, validators, 0);
  } catch (error) {
    await rm(path, { force: true });
    if (error instanceof DownloadError) throw error;
    throw new DownloadError(`download of ${url} failed: ${(error as Error).message}`);
  }
}

async function fetchFollowingRedirects(
  url: string, path: string, limits: DownloadLimits, deadline: number, validators: SourceValidators | undefined, redirects: number,
): Promise<DownloadResult> {
  const { request, response } = await open(url, limits, deadline, validators);
  const status = response.statusCode ?? 0;
  const location = response.headers.location;
  if (status >= 300 && status < 400 && status !== 304 && location) {
    response.resume();
    if (redirects >= MAX_REDIRECTS) throw new DownloadError(`download of ${url} failed: more than ${MAX_REDIRECTS} redirects`);
    return fetchFollowingRedirects(new URL(location, url).href, path, limits, deadline, validators, redirects + 1);
  }
  if (status === 304 && validators) {
    response.resume();
    return { status: 'not-modified' };
  }
  if (status !== 200) {
    response.resume();
    throw new DownloadError(`download of ${url} failed: HTTP ${status}`);
  }
  let bytes = 0;
  response.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  const expected = Number(response.headers['content-length'] ?? NaN);
  await withDeadline(pipeline(response, createWriteStream(path)), request, deadline, () => timedOut(url, limits));
  if (Number.isFinite(expected) && bytes !== expected) throw new DownloadError(`download of ${url} failed: ${bytes} of ${expected} bytes arrived`);
  return { status: 'downloaded', bytes, validators: validatorsOf(response) };
}

/** Sends the request; resolves with the response headers, within the connect and total limits. */
function open(url: string, limits: DownloadLimits, deadline: number, validators: SourceValidators | undefined): Promise<{ request: ClientRequest; response: IncomingMessage }> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : null;
  if (!send) return Promise.reject(new DownloadError(`download of ${url} failed: only http and https are supported`));
  return new Promise((resolve, reject) => {
    const request = send(target, { headers: { ...conditionalHeaders(validators), 'User-Agent': 'spoke-graph-builder' } });
    const connectTimer = setTimeout(
      () => request.destroy(new DownloadError(`download of ${url} failed: no connection within ${limits.connectTimeoutMs / 1000} s`)),
      Math.min(limits.connectTimeoutMs, Math.max(0, deadline - Date.now())),
    );
    const totalTimer = setTimeout(() => request.destroy(timedOut(url, limits)), Math.max(0, deadline - Date.now()));
    request.on('socket', (socket) => {
      const connected = () => clearTimeout(connectTimer);
      if (!socket.connecting) connected();
      socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', connected);
    });
    request.once('response', (response) => {
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      resolve({ request, response });
    });
    request.once('error', (error) => {
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      reject(error);
    });
    request.end();
  });
}

const timedOut = (url: string, limits: DownloadLimits) => new DownloadError(`download of ${url} failed: not complete within ${limits.totalTimeoutMs / 1000} s`);

/** The body's copy to disk, cut off at the deadline (a server that stops sending mid-body). */
async function withDeadline(copy: Promise<void>, request: ClientRequest, deadline: number, timeoutError: () => DownloadError): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = Math.max(0, deadline - Date.now());
  try {
    await Promise.race([
      copy,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = timeoutError();
          request.destroy(error);
          reject(error);
        }, limit);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
