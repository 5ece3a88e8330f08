import type { APIGatewayProxyResult } from 'aws-lambda';

/** A JSON answer, the shape of every API response (spec 7); pages use `htmlResponse` (page.ts). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}
