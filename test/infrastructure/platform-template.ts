import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { SpokeStack, STACK_NAME } from '../../lib/spoke-stack.ts';

/**
 * The synthesized platform template and helpers to read it. The stack is built with bundling
 * skipped (`aws:cdk:bundling-stacks: []`), so the tests check the template without running
 * esbuild; `npm run synth` exercises the bundling.
 */

export interface SynthesizedPlatform {
  readonly stack: SpokeStack;
  readonly template: Template;
  /** Resources of the template by logical id. */
  readonly resources: Readonly<Record<string, CfnResourceJson>>;
}

export interface CfnResourceJson {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly DeletionPolicy?: string;
}

export function synthesizePlatform(context: Record<string, unknown> = {}): SynthesizedPlatform {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new SpokeStack(app, STACK_NAME, { env: { account: '123456789012', region: 'eu-west-2' } });
  const template = Template.fromStack(stack);
  const resources = (template.toJSON() as { Resources: Record<string, CfnResourceJson> }).Resources;
  return { stack, template, resources };
}

let cached: SynthesizedPlatform | undefined;

/** One synthesis shared by the tests of a file (each test file runs in its own module scope). */
export function platform(): SynthesizedPlatform {
  cached ??= synthesizePlatform();
  return cached;
}

export function logicalId(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return platform().stack.getLogicalId(element);
}

export function resourcesOfType(type: string): [string, CfnResourceJson][] {
  return Object.entries(platform().resources).filter(([, resource]) => resource.Type === type);
}

/** Whether a CloudFormation value refers to the resource with this logical id (Ref or GetAtt). */
export function refersTo(value: unknown, id: string): boolean {
  return JSON.stringify(value).includes(`"${id}"`);
}

export interface PolicyStatementJson {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
}

/** Every statement of the IAM policies attached to a role. */
export function roleStatements(roleLogicalId: string): PolicyStatementJson[] {
  return resourcesOfType('AWS::IAM::Policy')
    .filter(([, policy]) => refersTo(policy.Properties?.['Roles'], roleLogicalId))
    .flatMap(([, policy]) => (policy.Properties?.['PolicyDocument'] as { Statement: PolicyStatementJson[] }).Statement);
}

/** Actions the role is allowed on the resource with this logical id. */
export function actionsOn(roleLogicalId: string, resourceLogicalId: string): string[] {
  return roleStatements(roleLogicalId)
    .filter((statement) => statement.Effect === 'Allow' && refersTo(statement.Resource, resourceLogicalId))
    .flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));
}

/** Full resource path (`/directions/v2`) of every API Gateway resource of one REST API, by logical id. */
export function apiResourcePaths(restApiLogicalId: string): Map<string, string> {
  const apiResources = resourcesOfType('AWS::ApiGateway::Resource').filter(([, resource]) =>
    refersTo(resource.Properties?.['RestApiId'], restApiLogicalId),
  );
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const resource = apiResources.find(([candidate]) => candidate === id)?.[1];
    if (!resource) throw new Error(`No API resource ${id}`);
    const parent = resource.Properties?.['ParentId'] as { Ref?: string };
    const parentPath = parent.Ref ? pathOf(parent.Ref) : '';
    const path = `${parentPath}/${String(resource.Properties?.['PathPart'])}`;
    paths.set(id, path);
    return path;
  };
  for (const [id] of apiResources) pathOf(id);
  return paths;
}

export interface ApiMethod {
  readonly path: string;
  readonly httpMethod: string;
  readonly properties: Record<string, unknown>;
}

/** Every method of one REST API with its resource path; the root is `/`. */
export function apiMethods(restApiLogicalId: string): ApiMethod[] {
  const paths = apiResourcePaths(restApiLogicalId);
  return resourcesOfType('AWS::ApiGateway::Method')
    .filter(([, method]) => refersTo(method.Properties?.['RestApiId'], restApiLogicalId))
    .map(([, method]) => {
      const properties = method.Properties ?? {};
      const resourceId = properties['ResourceId'] as { Ref?: string };
      return {
        path: resourceId.Ref ? paths.get(resourceId.Ref)! : '/',
        httpMethod: String(properties['HttpMethod']),
        properties,
      };
    });
}

/** Whether alarm actions publish to the platform's one alarm topic: exactly what output AlarmTopicArn prints. */
export function notifiesAlarmTopic(actions: unknown, synthesized: SynthesizedPlatform = platform()): boolean {
  const outputs = (synthesized.template.toJSON() as { Outputs: Record<string, { Value: unknown }> }).Outputs;
  return JSON.stringify(actions) === JSON.stringify([outputs['AlarmTopicArn']!.Value]);
}
