import { CfnResource, type Stack } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { LOG_RETENTION } from './spoke-function.ts';

/**
 * Functions CDK creates for its own custom resources (the static-input upload, the triggers) log
 * to a group Lambda would create on first run, without a retention. Each such function of the
 * stack gets a group of its own with the platform's retention instead, as every SpokeFunction has.
 */
export function retainCustomResourceLogs(stack: Stack): LogGroup[] {
  const created: LogGroup[] = [];
  for (const construct of stack.node.findAll()) {
    if (!CfnResource.isCfnResource(construct) || construct.cfnResourceType !== 'AWS::Lambda::Function') continue;
    if (construct instanceof CfnFunction && construct.loggingConfig) continue;
    const scope = construct.node.scope!;
    const logs = new LogGroup(scope, `${construct.node.id}Logs`, { retention: LOG_RETENTION });
    construct.addPropertyOverride('LoggingConfig.LogGroup', logs.logGroupName);
    created.push(logs);
  }
  return created;
}
