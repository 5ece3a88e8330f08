import { DefaultStackSynthesizer, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { tables, type TableDefinition } from '../platform/resources.ts';
import { entriesOf } from './naming.ts';
import type { DataStores } from './data-stores.ts';
import { SpokeFunction } from './spoke-function.ts';
import type { RestApis } from './rest-apis.ts';
import type { RiderIdentity } from './rider-identity.ts';
import type { UsagePlans } from './usage-plans.ts';
import type { WebFirewall } from './web-firewall.ts';

/** What the review reads of the platform's stack (lib/spoke-stack.ts passes itself). */
export interface ReviewedStack extends Stack {
  readonly apis: RestApis;
  readonly usagePlans: UsagePlans;
  readonly riderIdentity: RiderIdentity;
  readonly dataStores: DataStores;
  readonly firewall: WebFirewall | null;
}

/**
 * Every cdk-nag AwsSolutions finding the stack accepts, each with its reason, in one place
 * (test/infrastructure/nag.test.ts fails on any other error). Scoped to the construct it concerns; the
 * stack-wide ones concern every function, CDK's own included.
 */
export function acknowledgeNagFindings(stack: ReviewedStack): void {
  const accept = (scope: IConstruct, id: string, reason: string) => Validations.of(scope).acknowledge({ id: `AwsSolutions-${id}`, reason });

  accept(stack, 'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', 'AWS\'s policy for a function writing its own logs; every function has it and nothing more from AWS');
  accept(stack.apis, 'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]', 'AWS\'s policy made for the account\'s API Gateway logging role, kept current by AWS');
  for (const api of Object.values(stack.apis.apis)) {
    accept(api, 'APIG2', 'Every handler validates its request with zod and answers the spec\'s errors; API Gateway validation would answer in another shape');
    accept(api, 'COG4', 'Credentials are API keys, OAuth tokens and rider sessions, all resolved by the REQUEST authorizer (docs/operations.md, Routing)');
    accept(api, 'APIG4', 'Methods without the authorizer are the public endpoints of endpoints.ts (auth: public) and the 404 fallback');
    if (!stack.firewall) accept(api.deploymentStage, 'APIG3', 'WAF is optional: deploy with -c waf=true (docs/operations.md, WAF)');
  }
  accept(stack.usagePlans.usageKeySecret, 'SMG4', 'Rotated by the operator, which re-derives every usage-plan key: npm run admin -- usage-keys rotate-secret (docs/operations.md)');
  const users = stack.riderIdentity.userPool;
  accept(users, 'COG1', 'Riders sign in with emailed codes; the password policy applies only to the optional password and asks for 10 characters');
  accept(users, 'COG2', 'MFA would add a step to every rider sign-in; riders hold no payment or admin rights by default');
  accept(users, 'COG8', 'The LITE plan: threat protection (Plus) costs per rider and the sign-in is email codes');
  for (const distribution of Object.values(stack.dataStores.distributions)) {
    accept(distribution, 'CFR1', 'Riders anywhere may view their photos: no geo restriction');
    accept(distribution, 'CFR2', 'Serves immutable photo objects (GET, HEAD) from a private bucket; a CloudFront WAF needs a us-east-1 web ACL');
    accept(distribution, 'CFR4', 'The default *.cloudfront.net certificate fixes the minimum TLS version; a custom domain with its own certificate sets TLSv1.2_2021');
  }
  for (const construct of stack.node.findAll()) {
    if (construct instanceof SpokeFunction) acknowledgeFunction(construct, stack.dataStores, accept);
    if (construct.node.id.startsWith('Custom::CDKBucketDeployment')) acknowledgeBucketDeployment(construct, stack.dataStores, accept);
  }
}

type Accept = (scope: IConstruct, id: string, reason: string) => void;

/** What CDK's own grants and X-Ray write for the access a function declares, and no more. */
function acknowledgeFunction(fn: SpokeFunction, stores: DataStores, accept: Accept): void {
  const stack = Stack.of(fn);
  const grant = 'CDK\'s grant for the access the function declares in endpoints.ts, on that one resource';
  accept(fn, 'L1', 'Node.js 22 is the runtime the functions are bundled (esbuild target node22) and tested for; moving is a change of its own');
  accept(fn, 'IAM5[Resource::*]', 'X-Ray tracing: PutTraceSegments and PutTelemetryRecords take no resource');
  for (const [name] of entriesOf(fn.access.tables ?? {})) {
    const definition: TableDefinition = tables[name];
    if (definition.indexes?.length || definition.localIndexes?.length) {
      accept(fn, `IAM5[Resource::<${logicalIdOf(stores.tables[name])}.Arn>/index/*]`, grant);
    }
  }
  for (const [name, level] of entriesOf(fn.access.buckets ?? {})) {
    const actions = level === 'read' ? ['s3:GetObject*', 's3:GetBucket*', 's3:List*'] : ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'];
    for (const action of actions) accept(fn, `IAM5[Action::${action}]`, grant);
    accept(fn, `IAM5[Resource::<${logicalIdOf(stores.buckets[name])}.Arn>/*]`, grant);
  }
  const { region, account } = arnParts(stack);
  if (fn.access.signingKeys) accept(fn, `IAM5[Resource::arn:aws:kms:${region}:${account}:key/*]`, 'Signing keys are created at run time, so named by their tag (a condition of the statement)');
  if (fn.access.email) accept(fn, `IAM5[Resource::arn:aws:ses:${region}:${account}:identity/*]`, 'The sender is a deployment parameter verified in SES; any of the account\'s identities');
}

/** CDK's handler that copies the static inputs from the CDK asset bucket into the graphs bucket. */
function acknowledgeBucketDeployment(handler: IConstruct, stores: DataStores, accept: Accept): void {
  const reason = 'CDK\'s BucketDeployment handler: reads the staged inputs from the CDK asset bucket, writes and prunes inputs/ of the graphs bucket';
  for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) accept(handler, `IAM5[Action::${action}]`, reason);
  accept(handler, `IAM5[Resource::<${logicalIdOf(stores.buckets.graphs)}.Arn>/*]`, reason);
  accept(handler, 'L1', 'CDK\'s own handler, whose runtime aws-cdk-lib chooses and updates');
  const { region, account } = arnParts(Stack.of(handler));
  accept(handler, `IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-${account}-${region}/*]`, reason);
}

const logicalIdOf = (construct: IConstruct): string => Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);

/** Account and region as cdk-nag prints them in a finding: literal when known, else the pseudo parameter. */
function arnParts(stack: Stack): { region: string; account: string } {
  return {
    region: Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region,
    account: Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account,
  };
}
