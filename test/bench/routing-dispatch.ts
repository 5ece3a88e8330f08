/**
 * What the routing dispatch adds to a request on its own CPU: finding the city (the body parsed
 * and validated by the endpoint's schema, `cityForCoordinates`) and passing the event and the
 * answer through JSON as a Lambda invoke's payloads do (lib/local/city-routers.ts). The AWS side of
 * a synchronous invoke (the call to the Lambda service and the second function's start) is not
 * measurable on this machine.
 *
 * Usage: npx tsx test/bench/routing-dispatch.ts [--requests 20000]
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { cities } from '../../core/cities/index.ts';
import { routedCity } from '../../functions/dispatch/routed-city.ts';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '20000' } } });
const requests = Number(values.requests);

/** A directions request of three stops in New York, with the headers a browser sends. */
function directionsEvent(index: number): APIGatewayProxyEvent {
  const [lon, lat] = cities['new-york'].center;
  const step = (index % 100) / 10_000;
  const body = JSON.stringify({ coordinates: [[lon + step, lat], [lon + 0.01, lat + step], [lon + 0.02, lat + 0.005]], profile: 'cycling', supersafe: true, language: 'en' });
  const headers = { 'content-type': 'application/json', apikey: 'k'.repeat(40), 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36', accept: '*/*', host: 'api.example' };
  return {
    resource: '/directions/v2', path: '/directions/v2', httpMethod: 'POST', headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null, multiValueQueryStringParameters: null, pathParameters: null, stageVariables: null,
    requestContext: { requestId: `r-${index}`, authorizer: { principalId: 'key', plan: 'standard' } } as unknown as APIGatewayProxyEvent['requestContext'],
    body, isBase64Encoded: false,
  };
}

/** A routed answer of about 20 KB, the size of a three-stop route with guidance. */
const answer = { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ route: 'x'.repeat(20_000) }) };

function measure(label: string, work: (event: APIGatewayProxyEvent) => void): void {
  const events = Array.from({ length: requests }, (_, index) => directionsEvent(index));
  for (const event of events.slice(0, 2000)) work(event);
  const start = process.cpuUsage();
  for (const event of events) work(event);
  const used = process.cpuUsage(start);
  console.log(`| ${label} | ${(((used.user + used.system) / requests)).toFixed(1)} µs |`);
}

console.log(`${requests} requests, ${cpus().length} cores, Node ${process.versions.node}, load average ${loadavg()[0]!.toFixed(2)}`);
console.log('| Step | CPU per request |\n|---|---|');
measure('finding the city (schema and cityForCoordinates)', (event) => void routedCity('directions', event));
measure('event and answer through JSON (the invoke payloads)', (event) => {
  JSON.parse(JSON.stringify(event));
  JSON.parse(JSON.stringify(answer));
});
measure('both', (event) => {
  routedCity('directions', event);
  JSON.parse(JSON.stringify(event));
  JSON.parse(JSON.stringify(answer));
});
