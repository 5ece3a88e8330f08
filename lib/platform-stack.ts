import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { usagePlanEnvVars } from '../functions/auth/usage-plans.ts';
import { buckets, queues, tables } from '../functions/platform/resources.ts';
import { DataStores } from './data-stores.ts';
import { EndpointFunctions } from './endpoint-functions.ts';
import { GRAPH_SOURCES_CONTEXT_KEY, GraphRebuild, graphSourceUrls } from './graph-rebuild.ts';
import { keysOf, pascalCase } from './naming.ts';
import { PlatformApis } from './platform-apis.ts';
import { UsagePlans } from './usage-plans.ts';
import { Workers } from './workers.ts';

export const STACK_NAME = 'SpokePlatform';

/**
 * The whole platform in AWS: one construct per capability, composed here. Outputs whose
 * description starts with an environment variable name carry that variable's value for the
 * operator CLI (`npm run admin -- ... --aws`); docs/operations.md shows how to export them.
 */
export class PlatformStack extends Stack {
  readonly dataStores: DataStores;
  readonly functions: EndpointFunctions;
  readonly apis: PlatformApis;
  readonly usagePlans: UsagePlans;
  readonly graphRebuild: GraphRebuild;
  readonly workers: Workers;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    // Read first so a malformed context value fails before anything is built.
    const sourceUrls = graphSourceUrls(this.node.tryGetContext(GRAPH_SOURCES_CONTEXT_KEY));
    this.dataStores = new DataStores(this, 'DataStores');
    this.functions = new EndpointFunctions(this, 'EndpointFunctions', { dataStores: this.dataStores });
    this.apis = new PlatformApis(this, 'Apis', { functions: this.functions });
    this.usagePlans = new UsagePlans(this, 'UsagePlans', { api: this.apis.base });
    this.graphRebuild = new GraphRebuild(this, 'GraphRebuild', {
      dataStores: this.dataStores,
      sourceUrls,
    });
    this.workers = new Workers(this, 'Workers', { dataStores: this.dataStores });
    this.addOutputs();
  }

  private addOutputs(): void {
    new CfnOutput(this, 'BaseApiUrl', { value: this.apis.base.url, description: '{base_url}' });
    new CfnOutput(this, 'AppApiUrl', { value: this.apis.app.url, description: '{app_base_url}' });
    for (const plan of keysOf(usagePlanEnvVars)) {
      new CfnOutput(this, `UsagePlanId${pascalCase(plan)}`, {
        value: this.usagePlans.plans[plan].usagePlanId,
        description: `${usagePlanEnvVars[plan]} ${plan} usage plan: the operator CLI adds ${plan} keys to it`,
      });
    }
    for (const name of keysOf(tables)) {
      new CfnOutput(this, `${pascalCase(name)}TableName`, {
        value: this.dataStores.tables[name].tableName,
        description: `${tables[name].envVar} ${tables[name].purpose}`,
      });
    }
    for (const name of keysOf(buckets)) {
      new CfnOutput(this, `${pascalCase(name)}BucketName`, {
        value: this.dataStores.buckets[name].bucketName,
        description: `${buckets[name].envVar} ${buckets[name].purpose}`,
      });
    }
    for (const name of keysOf(queues)) {
      const { queue, deadLetterQueue } = this.dataStores.queues[name];
      new CfnOutput(this, `${pascalCase(name)}QueueUrl`, {
        value: queue.queueUrl,
        description: `${queues[name].envVar} ${queues[name].purpose}`,
      });
      new CfnOutput(this, `${pascalCase(name)}DeadLetterQueueUrl`, {
        value: deadLetterQueue.queueUrl,
        description: `Dead-letter queue of ${queues[name].name}: inspect, then redrive from the SQS console`,
      });
    }
  }
}
