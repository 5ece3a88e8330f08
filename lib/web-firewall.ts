import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { pascalCase } from './naming.ts';

/** Context flag (`cdk deploy -c waf=true`) that puts a WAF web ACL in front of both API stages. */
export const WAF_CONTEXT_KEY = 'waf';

/**
 * Requests one IP may make in five minutes over both APIs before WAF blocks it: 100 req/s
 * sustained, the enterprise plan's rate, which a partner may send from one address. Below that
 * the usage plans and the platform's limiter meter each key; this stops single-address floods
 * before they cost invocations.
 */
export const WAF_REQUESTS_PER_IP_PER_5_MINUTES = 30_000;

/**
 * AWS's common rule set blocks bodies over 8 KB (SizeRestrictions_BODY); photo uploads and reports
 * with photos are larger by design, and the handlers cap their own bodies, so that rule only counts.
 */
export const COUNTED_COMMON_RULES = ['SizeRestrictions_BODY'] as const;

export const wafEnabled = (contextValue: unknown): boolean => String(contextValue) === 'true';

export interface WebFirewallProps {
  readonly apis: readonly RestApi[];
}

/** The optional web ACL: a per-IP rate limit first, then AWS's managed common rules. */
export class WebFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: WebFirewallProps) {
    super(scope, id);
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      metricName,
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      description: 'Spoke APIs: per-IP rate limit and AWS managed common rules',
      visibilityConfig: visibility('SpokeApis'),
      rules: [
        {
          name: 'RateLimitPerIp',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: WAF_REQUESTS_PER_IP_PER_5_MINUTES, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
          visibilityConfig: visibility('RateLimitPerIp'),
        },
        {
          name: 'AwsCommonRules',
          priority: 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: COUNTED_COMMON_RULES.map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          visibilityConfig: visibility('AwsCommonRules'),
        },
      ],
    });
    for (const api of props.apis) {
      const association = new CfnWebACLAssociation(this, `${pascalCase(api.node.id)}Association`, {
        resourceArn: api.deploymentStage.stageArn,
        webAclArn: this.webAcl.attrArn,
      });
      association.node.addDependency(api.deploymentStage);
    }
  }
}
