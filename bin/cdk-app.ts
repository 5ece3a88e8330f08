import { App } from 'aws-cdk-lib';
import { SpokeStack, STACK_NAME } from '../lib/spoke-stack.ts';

/**
 * The CDK app (`cdk.json` runs it through tsx). Account and region come from the CLI's profile
 * when there is one; without credentials they stay unresolved, so `npm run synth` works offline.
 */
const app = new App();
new SpokeStack(app, STACK_NAME, {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: 'Spoke cycling routing and rider platform',
});
app.synth();
