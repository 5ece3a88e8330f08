import { Duration } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import {
  authorizerAccess,
  authorizerEntry,
  endpoints,
  fallbackEntry,
  type EndpointDefinition,
} from '../functions/platform/endpoints.ts';
import type { DataStores } from './data-stores.ts';
import { pascalCase } from './naming.ts';
import { SpokeFunction } from './spoke-function.ts';

export interface EndpointFunctionsProps {
  readonly dataStores: DataStores;
  /** Deployment settings every endpoint function and the authorizer receive (issuer, identity provider, mail). */
  readonly environment?: Readonly<Record<string, string>>;
}

/**
 * One function per entry of `endpoints`, plus the two every API shares: the REQUEST authorizer
 * in front of credentialed endpoints and the fallback that answers unknown paths. The APIs are
 * wired separately (RestApis); this construct only knows code, sizing and access.
 */
export class EndpointFunctions extends Construct {
  readonly authorizer: SpokeFunction;
  readonly fallback: SpokeFunction;
  /** The deployment settings the endpoint functions and the authorizer received. */
  readonly environment: Readonly<Record<string, string>>;
  private readonly byEndpointId = new Map<string, SpokeFunction>();

  constructor(scope: Construct, id: string, props: EndpointFunctionsProps) {
    super(scope, id);
    this.environment = props.environment ?? {};
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

  private createEndpointFunction(endpoint: EndpointDefinition, props: EndpointFunctionsProps): SpokeFunction {
    return new SpokeFunction(this, pascalCase(endpoint.id), {
      entry: endpoint.entry,
      access: endpoint.access,
      dataStores: props.dataStores,
      ...(props.environment ? { environment: props.environment } : {}),
      ...(endpoint.nativeModules ? { nativeModules: endpoint.nativeModules } : {}),
      description: `${endpoint.methods.join(', ')} ${endpoint.paths.join(', ')} on the ${endpoint.api} API`,
      ...(endpoint.memoryMb ? { memoryMb: endpoint.memoryMb } : {}),
      ...(endpoint.timeoutSeconds ? { timeout: Duration.seconds(endpoint.timeoutSeconds) } : {}),
    });
  }
}
