import { Aws, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type {
  UserPoolClient} from 'aws-cdk-lib/aws-cognito';
import {
  AccountRecovery,
  CfnUserPoolGroup,
  FeaturePlan,
  ManagedLoginVersion,
  OAuthScope,
  UserPool,
  UserPoolClientIdentityProvider,
  UserPoolEmail,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { idpCallbackPath, riderSignInTriggerAccess, riderSignInTriggerEntry } from '../platform/endpoints.ts';
import { RIDER_ADMIN_GROUP } from '../platform/resources.ts';
import type { DataStores } from './data-stores.ts';
import { SpokeFunction } from './spoke-function.ts';

export interface RiderIdentityProps {
  readonly dataStores: DataStores;
  /** `{base_url}` as apps see it: the consent screen's callback is under it. */
  readonly issuerUrl: string;
  /** The SES-verified address Cognito sends verification and reset mail from. */
  readonly mailFrom: string;
  /** Where the platform's own rider apps receive their authorization codes. */
  readonly riderAppCallbackUrls: string[];
}

/** Tokens as long as the platform's own OAuth access tokens; refresh tokens a month, as the platform's. */
const ACCESS_TOKEN_VALIDITY = Duration.hours(1);
const REFRESH_TOKEN_VALIDITY = Duration.days(30);
const OAUTH_SCOPES = [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE];

/**
 * Riders' accounts in AWS: the Amazon Cognito user pool the rider functions read
 * (functions/riders/identity-provider-client.ts), standing where the local identity provider stands on
 * a developer's machine.
 *
 * - Riders sign up themselves with their email (verified by a code) and a display name; the
 *   post-authentication trigger creates their Spoke account on first sign-in.
 * - A Cognito domain (its prefix made unique from the stack id) hosts the sign-in pages.
 * - Two kinds of app client, both public with the authorization code flow and PKCE: the consent
 *   screen's (callback `{consent_url}/idp-callback`) and the platform's own rider app, whose
 *   access tokens the rider endpoints accept.
 * - The `admin` group: members' tokens carry `cognito:groups: ["admin"]`
 *   (`npm run admin -- --aws riders grant-admin <email>`).
 */
export class RiderIdentity extends Construct {
  readonly userPool: UserPool;
  readonly domain: UserPoolDomain;
  readonly consentClient: UserPoolClient;
  readonly riderAppClient: UserPoolClient;
  readonly signInTrigger: SpokeFunction;
  readonly adminGroup: CfnUserPoolGroup;

  constructor(scope: Construct, id: string, props: RiderIdentityProps) {
    super(scope, id);
    this.signInTrigger = new SpokeFunction(this, 'SignInTrigger', {
      entry: riderSignInTriggerEntry,
      access: riderSignInTriggerAccess,
      dataStores: props.dataStores,
      description: 'Cognito post-authentication trigger: creates a rider account on first sign-in',
    });
    this.userPool = new UserPool(this, 'Riders', {
      featurePlan: FeaturePlan.LITE,
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: true, mutable: true } },
      passwordPolicy: { minLength: 10, requireLowercase: true, requireUppercase: false, requireDigits: true, requireSymbols: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      email: UserPoolEmail.withSES({ fromEmail: props.mailFrom, fromName: 'Spoke', sesRegion: Stack.of(this).region }),
      lambdaTriggers: { postAuthentication: this.signInTrigger.function },
      deletionProtection: true,
      // Riders' identities outlive any one stack, like their profiles.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.domain = this.userPool.addDomain('SignIn', {
      cognitoDomain: { domainPrefix: Fn.join('-', ['spoke', Fn.select(2, Fn.split('/', Aws.STACK_ID))]) },
      managedLoginVersion: ManagedLoginVersion.CLASSIC_HOSTED_UI,
    });
    const publicClient = (clientId: string, name: string, callbackUrls: string[]) =>
      this.userPool.addClient(clientId, {
        userPoolClientName: name,
        generateSecret: false,
        authFlows: { userSrp: true },
        oAuth: { flows: { authorizationCodeGrant: true }, scopes: OAUTH_SCOPES, callbackUrls },
        supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
        preventUserExistenceErrors: true,
        accessTokenValidity: ACCESS_TOKEN_VALIDITY,
        idTokenValidity: ACCESS_TOKEN_VALIDITY,
        refreshTokenValidity: REFRESH_TOKEN_VALIDITY,
        enableTokenRevocation: true,
      });
    this.consentClient = publicClient('ConsentScreen', 'spoke-consent-screen', [Fn.join('', [props.issuerUrl, idpCallbackPath])]);
    this.riderAppClient = publicClient('RiderApp', 'spoke-rider-app', props.riderAppCallbackUrls);
    this.adminGroup = new CfnUserPoolGroup(this, 'AdminGroup', {
      userPoolId: this.userPool.userPoolId,
      groupName: RIDER_ADMIN_GROUP,
      description: 'Spoke admins: full rider profiles in user search',
    });
  }

  /** The settings functions/riders/identity-provider-client.ts reads, from the resources above. */
  functionEnvironment(): Record<string, string> {
    const issuer = `https://cognito-idp.${Stack.of(this).region}.${Aws.URL_SUFFIX}/${this.userPool.userPoolId}`;
    const hostedUi = this.domain.baseUrl();
    return {
      RIDER_IDP_ISSUER: issuer,
      RIDER_IDP_JWKS_URI: `${issuer}/.well-known/jwks.json`,
      RIDER_IDP_AUTHORIZE_URL: `${hostedUi}/oauth2/authorize`,
      RIDER_IDP_TOKEN_URL: `${hostedUi}/oauth2/token`,
      RIDER_IDP_CONSENT_CLIENT_ID: this.consentClient.userPoolClientId,
      RIDER_IDP_APP_CLIENT_IDS: this.riderAppClient.userPoolClientId,
    };
  }
}
