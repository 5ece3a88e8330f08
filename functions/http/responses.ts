import type { APIGatewayProxyResult } from 'aws-lambda';

/** A JSON answer, the shape of every API response (spec 7); pages use `htmlResponse` (page.ts). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

/** A document in the format the caller asked for (directions as GPX), as text with its media type. */
export function documentResponse(status: number, document: { text: string; contentType: string }, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: status, headers: { 'Content-Type': document.contentType, ...headers }, body: document.text };
}
