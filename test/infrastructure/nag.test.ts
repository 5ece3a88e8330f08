import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { platform, synthesizePlatform } from './platform-template.ts';

/**
 * cdk-nag's AwsSolutions pack, the standard review of a CDK app: every finding is fixed or
 * acknowledged with its reason in lib/nag-suppressions.ts, so a new finding fails here.
 */

function findings(stack = platform().stack): { errors: string[]; warnings: string[] } {
  const report = new AwsSolutionsChecks().validateScope(stack);
  const list = (severity: string) => report.violations
    .filter((violation) => violation.severity === severity)
    .flatMap((violation) => violation.violatingResources.map((resource) => `${violation.ruleName} at ${resource.constructPath}`));
  return { errors: list('error'), warnings: list('warning') };
}

describe('cdk-nag AwsSolutions', () => {
  it('finds no unacknowledged error or warning in the stack', () => {
    const { errors, warnings } = findings();
    console.warn(`cdk-nag AwsSolutions: ${errors.length} errors, ${warnings.length} warnings unacknowledged`);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('finds none with the WAF either, and asks for the WAF only when it is off', () => {
    expect(findings(synthesizePlatform({ waf: 'true' }).stack)).toEqual({ errors: [], warnings: [] });
  });

  it('still reports what is not acknowledged (an unencrypted, unlogged bucket)', async () => {
    const { Stack } = await import('aws-cdk-lib');
    const { Bucket } = await import('aws-cdk-lib/aws-s3');
    const stack = new Stack();
    new Bucket(stack, 'Unreviewed');
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(report.violations.map((violation) => violation.ruleName)).toContain('AwsSolutions-S1');
  });
});
