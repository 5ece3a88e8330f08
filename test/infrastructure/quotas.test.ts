import type { CfnElement } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { cityIds } from '../../core/cities/index.ts';
import { ROUTING_FUNCTION_MEMORY_MB } from '../../platform/function-memory.ts';
import { cityRouterEntry, endpoints, routerFunctionEnvVar } from '../../platform/endpoints.ts';
import { logicalId, platform, refersTo, resourcesOfType, roleStatements, synthesizePlatform } from './platform-template.ts';

/**
 * What a new AWS account allows (docs/operations.md, "From zero"): 10 concurrent executions, of
 * which no function may reserve any, and 3,008 MB per function. The default synthesis stays
 * within both; the routing endpoints dispatch to one routing function per city.
 */

const NEW_ACCOUNT_MAX_MEMORY_MB = 3008;
const CLOUDFORMATION_MAX_RESOURCES = 500;
const routingEndpoints = endpoints.filter((endpoint) => endpoint.routedByCity);

const functionsOf = (resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');

describe('quotas of a new account', () => {
  it('no function reserves concurrency', () => {
    const reserving = functionsOf(platform().resources).filter(([, fn]) => fn.Properties?.['ReservedConcurrentExecutions'] !== undefined);
    expect(reserving.map(([id]) => id)).toEqual([]);
  });

  it("stays within CloudFormation's 500 resources per stack, with every option on", () => {
    // A template over the limit fails the deploy, not the synthesis: hold it here, where it shows
    // (the per-function and per-API alarms already live in a nested stack of their own).
    for (const synthesized of [platform(), synthesizePlatform({ waf: 'true', alarmEmail: 'ops@example.com', bikeShareReservedConcurrency: 'true' })]) {
      expect(Object.keys(synthesized.resources).length).toBeLessThanOrEqual(CLOUDFORMATION_MAX_RESOURCES);
    }
  });

  it('no function asks for more than 3,008 MB', () => {
    const memories = functionsOf(platform().resources).map(([id, fn]) => [id, Number(fn.Properties?.['MemorySize'] ?? 128)] as const);
    expect(memories.length).toBeGreaterThan(30);
    expect(memories.filter(([, memory]) => memory > NEW_ACCOUNT_MAX_MEMORY_MB)).toEqual([]);
  });
});

describe('routing: a dispatch per endpoint, a routing function per city', () => {
  const { functions } = platform().stack;
  const routerIds = () => cityIds.map((city) => logicalId(functions.cityRouters[city].function));

  it('has exactly one routing function per city, with the routing memory and a timeout under the dispatch\'s', () => {
    expect(routingEndpoints.map((endpoint) => endpoint.id).sort()).toEqual(['directions', 'explain-supersafe', 'multi-modal']);
    expect(new Set(routerIds()).size).toBe(cityIds.length);
    for (const city of cityIds) {
      const properties = platform().resources[logicalId(functions.cityRouters[city].function)]!.Properties!;
      expect(properties).toMatchObject({ MemorySize: ROUTING_FUNCTION_MEMORY_MB, Timeout: 28 });
      expect(String(properties['Description'])).toContain(city);
    }
    expect(functions.cityRouters.london.function.node.path).not.toBe(functions.cityRouters['new-york'].function.node.path);
    expect(cityRouterEntry).toBe('functions/dispatch/city-router-handler.ts');
  });

  it('each routing endpoint\'s dispatch names every city\'s function and may invoke those alone', () => {
    for (const endpoint of routingEndpoints) {
      const dispatch = functions.forEndpoint(endpoint.id);
      const variables = (platform().resources[logicalId(dispatch)]!.Properties!['Environment'] as { Variables: Record<string, unknown> }).Variables;
      for (const city of cityIds) expect(variables[routerFunctionEnvVar(city)], `${endpoint.id} ${city}`).toEqual({ Ref: logicalId(functions.cityRouters[city].function) });
      const invokes = roleStatements(logicalId(dispatch.role!)).filter((statement) => [statement.Action].flat().includes('lambda:InvokeFunction'));
      const invoked = routerIds().filter((id) => invokes.some((statement) => refersTo(statement.Resource, id)));
      expect(invoked, endpoint.id).toEqual(routerIds());
      // Nothing else: every resource of those statements is one of the cities' functions (or its versions).
      const resources = invokes.flatMap((statement) => [statement.Resource].flat());
      expect(resources.every((resource) => routerIds().some((id) => refersTo(resource, id))), endpoint.id).toBe(true);
    }
  });

  it('no other function may invoke the routing functions', () => {
    const dispatchRoles = new Set(routingEndpoints.map((endpoint) => logicalId(functions.forEndpoint(endpoint.id).role!)));
    const invokers = resourcesOfType('AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties?.['PolicyDocument']).includes('lambda:InvokeFunction'))
      .filter(([, policy]) => routerIds().some((id) => refersTo(policy.Properties?.['PolicyDocument'], id)))
      .flatMap(([, policy]) => (policy.Properties?.['Roles'] as { Ref: string }[]).map((role) => role.Ref));
    expect(new Set(invokers)).toEqual(dispatchRoles);
  });

  it('gives the routing functions more memory with -c routingMemoryMb, and refuses sizes Lambda does not take', () => {
    const { stack, template } = synthesizePlatform({ routingMemoryMb: '7168' });
    for (const city of cityIds) {
      const id = stack.getLogicalId(stack.functions.cityRouters[city].function.node.defaultChild as CfnElement);
      expect(template.toJSON().Resources[id].Properties.MemorySize, city).toBe(7168);
    }
    const dispatchId = stack.getLogicalId(stack.functions.forEndpoint('directions').node.defaultChild as CfnElement);
    expect(template.toJSON().Resources[dispatchId].Properties.MemorySize).toBeLessThanOrEqual(NEW_ACCOUNT_MAX_MEMORY_MB);
    expect(() => synthesizePlatform({ routingMemoryMb: '20000' })).toThrow(/routingMemoryMb/);
    expect(() => synthesizePlatform({ routingMemoryMb: 'lots' })).toThrow(/routingMemoryMb/);
  });
});
