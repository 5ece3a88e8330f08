import { Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { cityIds, type CityId } from '../core/cities/index.ts';
import { MAX_FUNCTION_MEMORY_MB, ROUTING_FUNCTION_MEMORY_MB } from '../platform/function-memory.ts';
import {
  authorizerAccess,
  authorizerEntry,
  CITY_ROUTER_TIMEOUT_SECONDS,
  cityRouterAccess,
  cityRouterEntry,
  endpoints,
  fallbackEntry,
  routerFunctionEnvVar,
  type EndpointDefinition,
} from '../platform/endpoints.ts';
import type { DataStores } from './data-stores.ts';
import { pascalCase } from './naming.ts';
import { SpokeFunction } from './spoke-function.ts';

export interface EndpointFunctionsProps {
  readonly dataStores: DataStores;
  /** Deployment settings every endpoint function and the authorizer receive (issuer, identity provider, mail). */
  readonly environment?: Readonly<Record<string, string>>;
  /** The context value `routingMemoryMb`, if any: the cities' routing functions' memory. */
  readonly routingMemoryMb?: unknown;
}

/**
 * Context key that gives the cities' routing functions more memory than a new account's 3,008 MB
 * (`cdk deploy -c routingMemoryMb=7168`), once the account's quota allows it (docs/operations.md).
 */
export const ROUTING_MEMORY_CONTEXT_KEY = 'routingMemoryMb';

/** The routing functions' memory from the context value, checked against what Lambda accepts. */
export function routingMemorySetting(contextValue: unknown): number {
  if (contextValue === undefined) return ROUTING_FUNCTION_MEMORY_MB;
  const megabytes = Number(contextValue);
  if (!Number.isInteger(megabytes) || megabytes < ROUTING_FUNCTION_MEMORY_MB || megabytes > MAX_FUNCTION_MEMORY_MB) {
    throw new Error(`Context ${ROUTING_MEMORY_CONTEXT_KEY}: a whole number of MB from ${ROUTING_FUNCTION_MEMORY_MB} to ${MAX_FUNCTION_MEMORY_MB}, not ${String(contextValue)}`);
  }
  return megabytes;
}

/**
 * One function per entry of `endpoints`, plus the two every API shares: the REQUEST authorizer
 * in front of credentialed endpoints and the fallback that answers unknown paths. The APIs are
 * wired separately (RestApis); this construct only knows code, sizing and access.
 */
export class EndpointFunctions extends Construct {
  readonly authorizer: SpokeFunction;
  readonly fallback: SpokeFunction;
  /** Each city's routing function, behind the routing endpoints' dispatch (endpoints.ts `routedByCity`). */
  readonly cityRouters: Readonly<Record<CityId, SpokeFunction>>;
  /** The deployment settings the endpoint functions and the authorizer received. */
  readonly environment: Readonly<Record<string, string>>;
  private readonly byEndpointId = new Map<string, SpokeFunction>();

  constructor(scope: Construct, id: string, props: EndpointFunctionsProps) {
    super(scope, id);
    this.environment = props.environment ?? {};
    this.cityRouters = this.createCityRouters(props);
    for (const endpoint of endpoints) {
      if (this.byEndpointId.has(endpoint.id)) throw new Error(`Endpoint id ${endpoint.id} is defined twice in endpoints.ts`);
      this.byEndpointId.set(endpoint.id, this.createEndpointFunction(endpoint, props));
    }
    this.authorizer = new SpokeFunction(this, 'Authorizer', {
      entry: authorizerEntry,
      access: authorizerAccess,
      dataStores: props.dataStores,
      description: 'REQUEST authorizer: resolves the apikey or Authorization credential',
      ...(props.environment ? { environment: props.environment } : {}),
    });
    this.fallback = new SpokeFunction(this, 'Fallback', {
      entry: fallbackEntry,
      access: {},
      dataStores: props.dataStores,
      description: 'Answers 404 Unknown endpoint or API version for every undefined path',
    });
  }

  /** The function serving an endpoint of `endpoints.ts`. */
  forEndpoint(endpointId: string): NodejsFunction {
    const platformFunction = this.byEndpointId.get(endpointId);
    if (!platformFunction) throw new Error(`No function for endpoint ${endpointId}`);
    return platformFunction.function;
  }

  /** One routing function per city: a warm container holds its city's graph for every routing endpoint. */
  private createCityRouters(props: EndpointFunctionsProps): Record<CityId, SpokeFunction> {
    const memoryMb = routingMemorySetting(props.routingMemoryMb);
    const routers = {} as Record<CityId, SpokeFunction>;
    for (const city of cityIds) {
      routers[city] = new SpokeFunction(this, `${pascalCase(city)}Router`, {
        entry: cityRouterEntry,
        access: cityRouterAccess,
        dataStores: props.dataStores,
        ...(props.environment ? { environment: props.environment } : {}),
        description: `Routing of ${city}: directions, multi-modal and explain-supersafe requests the dispatch sends it`,
        memoryMb,
        timeout: Duration.seconds(CITY_ROUTER_TIMEOUT_SECONDS),
      });
    }
    return routers;
  }

  /** What a routing endpoint's dispatch needs: each city's function's name, and leave to invoke it alone. */
  private dispatchTo(dispatch: SpokeFunction): void {
    for (const city of cityIds) {
      dispatch.function.addEnvironment(routerFunctionEnvVar(city), this.cityRouters[city].function.functionName);
      // The function itself, unqualified: `grantInvoke` would add every version and alias (`:*`) too.
      dispatch.function.addToRolePolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.cityRouters[city].function.functionArn] }));
    }
  }

  private createEndpointFunction(endpoint: EndpointDefinition, props: EndpointFunctionsProps): SpokeFunction {
    const created = new SpokeFunction(this, pascalCase(endpoint.id), {
      entry: endpoint.entry,
      access: endpoint.access,
      dataStores: props.dataStores,
      // A dispatch reads no deployment setting: the city's function it invokes does.
      ...(props.environment && !endpoint.routedByCity ? { environment: props.environment } : {}),
      ...(endpoint.nativeModules ? { nativeModules: endpoint.nativeModules } : {}),
      description: `${endpoint.methods.join(', ')} ${endpoint.paths.join(', ')} on the ${endpoint.api} API`,
      ...(endpoint.memoryMb ? { memoryMb: endpoint.memoryMb } : {}),
      ...(endpoint.timeoutSeconds ? { timeout: Duration.seconds(endpoint.timeoutSeconds) } : {}),
    });
    if (endpoint.routedByCity) this.dispatchTo(created);
    return created;
  }
}
