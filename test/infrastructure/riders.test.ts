import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../platform/endpoints.ts';
import { tables } from '../../platform/resources.ts';
import { INSTALL_NATIVE_MODULES_CONTEXT, lockedVersions, nativeModuleInstall } from '../../lib/spoke-function.ts';
import { DEFAULT_RIDER_APP_CALLBACK } from '../../lib/spoke-stack.ts';
import { logicalId, platform, refersTo, resourcesOfType, synthesizePlatform } from './platform-template.ts';

/**
 * What the rider functions read, created by the stack (README, "Deployment settings"): the
 * Cognito user pool with its clients, admin group and sign-in trigger; the parameters only a
 * deployment can know; the photo CDN; the rider tables; sharp for the upload function.
 */

const variablesOf = (id: string): Record<string, unknown> =>
  (platform().resources[id]!.Properties!['Environment'] as { Variables: Record<string, unknown> }).Variables;

describe('deployment parameters', () => {
  it('ask only for what must come from outside: the public {base_url} and the verified mail sender', () => {
    const parameters = platform().template.toJSON().Parameters as Record<string, { Type: string; AllowedPattern?: string; Default?: string }>;
    expect(parameters['OAuthIssuerUrl']).toMatchObject({ Type: 'String' });
    expect(parameters['MailFromAddress']).toMatchObject({ Type: 'String' });
    expect(parameters['RiderAppCallbackUrls']).toMatchObject({ Type: 'CommaDelimitedList', Default: DEFAULT_RIDER_APP_CALLBACK });
    const issuer = new RegExp(parameters['OAuthIssuerUrl']!.AllowedPattern!);
    // Empty by default: the first deploy needs no value (see the issuer test below).
    expect(parameters['OAuthIssuerUrl']!.Default).toBe('');
    expect(['', 'https://api.spoke.example', 'https://abc.execute-api.eu-west-2.amazonaws.com/prod'].every((url) => issuer.test(url))).toBe(true);
    expect(['http://api.spoke.example', 'https://api.spoke.example/', 'api.spoke.example'].some((url) => issuer.test(url))).toBe(false);
    const mail = new RegExp(parameters['MailFromAddress']!.AllowedPattern!);
    expect(mail.test('no-reply@spoke.example')).toBe(true);
    expect(mail.test('spoke.example')).toBe(false);
  });
});

/** {base_url}: the parameter when it is set, else the base API's own URL. */
const issuerUrl = () => ({
  'Fn::If': ['CustomIssuerUrl', { Ref: 'OAuthIssuerUrl' }, {
    'Fn::Join': ['', ['https://', { Ref: logicalId(platform().stack.apis.base) }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/prod']],
  }],
});

describe('the issuer URL at the first deploy', () => {
  it('is the parameter when one is given, else the base API\'s execute-api URL with its stage', () => {
    const conditions = platform().template.toJSON().Conditions as Record<string, unknown>;
    expect(conditions['CustomIssuerUrl']).toEqual({ 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'OAuthIssuerUrl' }, ''] }] });
    expect((platform().template.toJSON().Outputs as Record<string, { Value: unknown }>)['OAuthIssuer']!.Value).toEqual(issuerUrl());
  });

  it('refers to the REST API resource alone, which depends on nothing, so no function waits on the API that calls it', () => {
    const api = platform().resources[logicalId(platform().stack.apis.base)]!;
    expect(JSON.stringify(api)).not.toMatch(/"Ref"|Fn::GetAtt/);
    expect((platform().template.toJSON().Resources as Record<string, { DependsOn?: unknown }>)[logicalId(platform().stack.apis.base)]!.DependsOn).toBeUndefined();
  });
});

describe('rider identity (Cognito)', () => {
  const identity = () => platform().stack.riderIdentity;

  it('a user pool riders sign up to with their email, which runs the sign-in trigger and sends mail from the parameter', () => {
    const pool = platform().resources[logicalId(identity().userPool)]!;
    expect(pool.DeletionPolicy).toBe('Retain');
    expect(pool.Properties).toMatchObject({
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      DeletionProtection: 'ACTIVE',
      UserPoolTier: 'LITE',
      LambdaConfig: { PostAuthentication: { 'Fn::GetAtt': [logicalId(identity().signInTrigger.function), 'Arn'] } },
      EmailConfiguration: { EmailSendingAccount: 'DEVELOPER' },
    });
    expect(refersTo((pool.Properties!['EmailConfiguration'] as { From: unknown }).From, 'MailFromAddress')).toBe(true);
    platform().template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [logicalId(identity().signInTrigger.function), 'Arn'] },
      Principal: 'cognito-idp.amazonaws.com',
    });
  });

  it('a hosted sign-in domain unique to the stack, on the classic hosted UI', () => {
    const domains = resourcesOfType('AWS::Cognito::UserPoolDomain');
    expect(domains).toHaveLength(1);
    const properties = domains[0]![1].Properties!;
    expect(JSON.stringify(properties['Domain'])).toContain('AWS::StackId');
    expect(properties['ManagedLoginVersion']).toBe(1);
  });

  it('two public app clients with the code flow: the consent screen (callback under the issuer) and the rider app', () => {
    const consent = platform().resources[logicalId(identity().consentClient)]!.Properties!;
    const app = platform().resources[logicalId(identity().riderAppClient)]!.Properties!;
    for (const client of [consent, app]) {
      expect(client).toMatchObject({
        GenerateSecret: false,
        AllowedOAuthFlows: ['code'],
        AllowedOAuthFlowsUserPoolClient: true,
        AllowedOAuthScopes: ['openid', 'email', 'profile'],
        SupportedIdentityProviders: ['COGNITO'],
        PreventUserExistenceErrors: 'ENABLED',
      });
    }
    expect(consent['CallbackURLs']).toEqual([{ 'Fn::Join': ['', [issuerUrl(), '/auth/v1/consent/idp-callback']] }]);
    expect(app['CallbackURLs']).toEqual({ Ref: 'RiderAppCallbackUrls' });
  });

  it('an admin group', () => {
    platform().template.hasResourceProperties('AWS::Cognito::UserPoolGroup', {
      GroupName: 'admin',
      UserPoolId: { Ref: logicalId(identity().userPool) },
    });
  });

  it('the authorizer and every function that runs an endpoint handler get the pool, its clients and domain, the issuer and the sender', () => {
    const { functions } = platform().stack;
    // A routing endpoint's own function only dispatches; its handler runs in each city's routing function.
    const handlerFunctions = [
      functions.authorizer.function,
      ...endpoints.filter((endpoint) => !endpoint.routedByCity).map((endpoint) => functions.forEndpoint(endpoint.id)),
      ...Object.values(functions.cityRouters).map((router) => router.function),
    ];
    for (const id of handlerFunctions.map((fn) => logicalId(fn))) {
      const variables = variablesOf(id);
      expect(variables['OAUTH_ISSUER']).toEqual(issuerUrl());
      expect(variables['SPOKE_MAIL_FROM']).toEqual({ Ref: 'MailFromAddress' });
      expect(variables['RIDER_IDP_CONSENT_CLIENT_ID']).toEqual({ Ref: logicalId(identity().consentClient) });
      expect(variables['RIDER_IDP_APP_CLIENT_IDS']).toEqual({ Ref: logicalId(identity().riderAppClient) });
      for (const name of ['RIDER_IDP_ISSUER', 'RIDER_IDP_JWKS_URI']) expect(refersTo(variables[name], logicalId(identity().userPool)), name).toBe(true);
      expect(JSON.stringify(variables['RIDER_IDP_JWKS_URI'])).toContain('/.well-known/jwks.json');
      for (const name of ['RIDER_IDP_AUTHORIZE_URL', 'RIDER_IDP_TOKEN_URL']) expect(refersTo(variables[name], logicalId(identity().domain)), name).toBe(true);
    }
  });

  it('outputs the user pool id for the operator CLI', () => {
    const outputs = platform().template.toJSON().Outputs as Record<string, { Value: unknown; Description: string }>;
    expect(outputs['RiderUserPoolId']!.Value).toEqual({ Ref: logicalId(identity().userPool) });
    expect(outputs['RiderUserPoolId']!.Description.split(' ')[0]).toBe('RIDER_USER_POOL_ID');
  });
});

describe('photos', () => {
  it('are served by a CloudFront distribution that alone may read the private bucket', () => {
    const { dataStores, functions } = platform().stack;
    const distribution = dataStores.distributions.photos!;
    platform().template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    platform().template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const config = platform().resources[logicalId(distribution)]!.Properties!['DistributionConfig'] as Record<string, any>;
    expect(config['DefaultCacheBehavior']).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', AllowedMethods: ['GET', 'HEAD'] });
    expect(refersTo(config['Origins'], logicalId(dataStores.buckets.photos))).toBe(true);
    const policies = resourcesOfType('AWS::S3::BucketPolicy').filter(([, candidate]) => refersTo(candidate.Properties?.['Bucket'], logicalId(dataStores.buckets.photos)));
    expect(policies).toHaveLength(1);
    const statements = (policies[0]![1].Properties!['PolicyDocument'] as { Statement: { Principal?: { Service?: string }; Action: unknown }[] }).Statement;
    expect(statements.some((statement) => statement.Principal?.Service === 'cloudfront.amazonaws.com' && statement.Action === 's3:GetObject')).toBe(true);
    const upload = variablesOf(logicalId(functions.forEndpoint('user-photo')));
    expect(upload['PHOTOS_PUBLIC_URL']).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(distribution), 'DomainName'] }]] });
  });
});

describe('rider tables', () => {
  it('rides keep the date index local, projecting what statistics read', () => {
    const rides = platform().resources[logicalId(platform().stack.dataStores.tables.rides)]!.Properties!;
    expect(rides['KeySchema']).toEqual([{ AttributeName: 'idp_user_id', KeyType: 'HASH' }, { AttributeName: 'ride_id', KeyType: 'RANGE' }]);
    expect(rides['LocalSecondaryIndexes']).toEqual([
      {
        IndexName: 'by-date-started',
        KeySchema: [{ AttributeName: 'idp_user_id', KeyType: 'HASH' }, { AttributeName: 'started_key', KeyType: 'RANGE' }],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...tables.rides.localIndexes[0].include] },
      },
    ]);
  });

  it('the name index, the upload counter (with TTL) and the events table', () => {
    const { dataStores } = platform().stack;
    expect(platform().resources[logicalId(dataStores.tables.riderNameTrigrams)]!.Properties!['KeySchema']).toEqual([
      { AttributeName: 'trigram', KeyType: 'HASH' },
      { AttributeName: 'name_key', KeyType: 'RANGE' },
    ]);
    expect(platform().resources[logicalId(dataStores.tables.imageUploads)]!.Properties!['TimeToLiveSpecification']).toEqual({ AttributeName: 'expires_at', Enabled: true });
    expect(platform().resources[logicalId(dataStores.tables.events)]!.Properties!['KeySchema']).toEqual([{ AttributeName: 'event_id', KeyType: 'HASH' }]);
  });
});

describe('sharp for the upload function', () => {
  it('is installed for linux-arm64 from the lock file when deploying with the context flag', () => {
    const hooks = nativeModuleInstall(['sharp']);
    const [command] = hooks.afterBundling('/project', '/bundle');
    expect(command).toContain("cd '/bundle'");
    expect(command).toContain(`"sharp":"${lockedVersions(['sharp']).sharp}"`);
    expect(command).toMatch(/npm ci --omit=dev --ignore-scripts .*--os=linux --cpu=arm64 --libc=glibc/);
    expect(hooks.beforeBundling('/project', '/bundle')).toEqual([]);
  });

  it('without the flag the template refuses to deploy, with the reason; with it, it deploys', () => {
    // CDK's own CheckBootstrapVersion rule aside.
    const rules = (template: Template) =>
      Object.entries((template.toJSON().Rules ?? {}) as Record<string, { Assertions: { AssertDescription: string }[] }>)
        .filter(([id]) => id !== 'CheckBootstrapVersion')
        .map(([, rule]) => rule);
    const without = rules(platform().template);
    expect(without).toHaveLength(1);
    expect(without[0]!.Assertions[0]!.AssertDescription).toContain(`cdk deploy -c ${INSTALL_NATIVE_MODULES_CONTEXT}=true`);
    expect(without[0]!.Assertions[0]!.AssertDescription).toContain('functions/riders/photo-handler.ts needs sharp');
    expect(rules(synthesizePlatform({ [INSTALL_NATIVE_MODULES_CONTEXT]: 'true' }).template)).toEqual([]);
  });
});
