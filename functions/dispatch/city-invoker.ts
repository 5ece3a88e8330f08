import { InvokeCommand } from '@aws-sdk/client-lambda';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { CityId } from '../../core/cities/index.ts';
import { lambda } from '../../platform/aws.ts';
import { routerFunctionEnvVar } from '../../platform/endpoints.ts';

/** Runs a city's routing function on an API Gateway event and gives back its answer. */
export type CityInvoker = (city: CityId, event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

/** A city's routing function failed past its own error handling (or ran out of time): API Gateway's 502, as before. */
export class CityFunctionError extends Error {
  constructor(city: CityId, functionError: string, errorType: string) {
    super(`The routing function of ${city} failed (${functionError}: ${errorType})`);
  }
}

/** The error's type only: its message may quote the request. */
function errorTypeOf(payload: string): string {
  try {
    return String((JSON.parse(payload) as { errorType?: unknown }).errorType ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/** In AWS: a synchronous Lambda invoke of the function the stack names in `ROUTER_FUNCTION_<CITY>`. */
export const lambdaCityInvoker: CityInvoker = async (city, event) => {
  const variable = routerFunctionEnvVar(city);
  const functionName = process.env[variable];
  if (!functionName) throw new Error(`${variable} is not set: the stack names each city's routing function to the dispatch`);
  const response = await lambda().send(
    new InvokeCommand({ FunctionName: functionName, InvocationType: 'RequestResponse', Payload: new TextEncoder().encode(JSON.stringify(event)) }),
  );
  const payload = response.Payload ? new TextDecoder().decode(response.Payload) : '';
  if (response.FunctionError) throw new CityFunctionError(city, response.FunctionError, errorTypeOf(payload));
  return JSON.parse(payload) as APIGatewayProxyResult;
};

let cityInvoker: CityInvoker = lambdaCityInvoker;

/** The local platform runs the cities' functions in its own process (lib/local/city-routers.ts). */
export function useCityInvoker(invoker: CityInvoker): void {
  cityInvoker = invoker;
}

export const invokeCity: CityInvoker = (city, event) => cityInvoker(city, event);
