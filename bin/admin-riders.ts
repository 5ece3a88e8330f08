import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AdminAddUserToGroupCommand,
  AdminRemoveUserFromGroupCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
  ListUsersInGroupCommand,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { escapeControlCharacters } from '../core/control-characters.ts';
import { localStateDir } from '../lib/local/paths.ts';
import { RIDER_ADMIN_GROUP } from '../platform/resources.ts';
import { getRider } from '../functions/riders/profiles.ts';
import { RIDER_APP_CLIENT_ID } from '../lib/local/identity-provider.ts';

/**
 * `npm run admin -- riders …`: a rider's access token on the local platform (`riders token`, to
 * try the rider endpoints with curl), and the admin role of riders (spec 5.6: admins see full profiles in
 * search) is membership of the identity provider's `admin` group, which the rider's tokens then
 * carry in `cognito:groups`. Locally that is the local identity provider's admin API; with
 * --aws, Amazon Cognito's (AdminAddUserToGroup, AdminRemoveUserFromGroup, ListUsers), on the user
 * pool in RIDER_USER_POOL_ID (a stack output). Tokens issued before a change keep their groups
 * until they expire (an hour at most); the rider signs in again to get the new ones. Riders'
 * emails and names are what they typed, printed with control characters escaped (`\u001b`, `\n`),
 * so a name cannot drive the operator's terminal or forge a line.
 *
 * `riders token <email>` has the local identity provider sign the rider in for the platform's own
 * rider app (its admin AdminInitiateAuth, the post-authentication trigger included, so a first
 * sign-in creates the account) and prints the access token alone on stdout. It works on the local
 * platform only: in AWS riders get their tokens by signing in at Cognito, and the CLI mints none.
 */

export class RidersUsageError extends Error {}

interface DirectoryUser {
  sub: string;
  email: string;
  name: string;
  groups: string[];
}

interface RiderDirectory {
  setGroup(email: string, member: boolean): Promise<DirectoryUser | null>;
  list(): Promise<DirectoryUser[]>;
}

interface LocalRiderDirectory extends RiderDirectory {
  /** The rider app's access token of a fresh sign-in, or null for an unknown email. */
  accessToken(email: string): Promise<{ token: string; expiresIn: number } | null>;
}

async function localDirectory(): Promise<LocalRiderDirectory> {
  const infoFile = join(localStateDir(), 'local-platform.json');
  let idp: { url: string; admin_secret: string };
  try {
    idp = (JSON.parse(await readFile(infoFile, 'utf8')) as { identity_provider: typeof idp }).identity_provider;
  } catch {
    throw new RidersUsageError(`No local platform found (${infoFile} is missing). Start it with \`npm start\`, or pass --aws.`);
  }
  const request = async (path: string, init: RequestInit = {}) => {
    let response: Response;
    try {
      response = await fetch(`${idp.url}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${idp.admin_secret}`, 'Content-Type': 'application/json' },
      });
    } catch {
      throw new RidersUsageError(`The local platform is not running: its identity provider at ${idp.url} does not answer (${infoFile} is from an earlier start). Start it with \`npm start\`.`);
    }
    return { status: response.status, body: (await response.json()) as unknown };
  };
  return {
    async setGroup(email, member) {
      const answer = await request('/admin/group-membership', { method: 'POST', body: JSON.stringify({ email, group: RIDER_ADMIN_GROUP, member }) });
      if (answer.status === 404) return null;
      if (answer.status !== 200) throw new Error(`The local identity provider answered ${answer.status}`);
      return answer.body as DirectoryUser;
    },
    async list() {
      return ((await request('/admin/users')).body as { users: DirectoryUser[] }).users;
    },
    async accessToken(email) {
      const answer = await request('/admin/initiate-auth', { method: 'POST', body: JSON.stringify({ email, client_id: RIDER_APP_CLIENT_ID }) });
      if (answer.status === 404) return null;
      if (answer.status !== 200) throw new Error(`The local identity provider answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      const tokens = answer.body as { access_token: string; expires_in: number };
      return { token: tokens.access_token, expiresIn: tokens.expires_in };
    },
  };
}

function cognitoDirectory(): RiderDirectory {
  const userPoolId = process.env.RIDER_USER_POOL_ID;
  if (!userPoolId) throw new RidersUsageError('Set RIDER_USER_POOL_ID to the riders\' user pool id (stack output RiderUserPoolId)');
  const client = new CognitoIdentityProviderClient({});
  const attribute = (user: UserType, name: string) => user.Attributes?.find((candidate) => candidate.Name === name)?.Value ?? '';
  const userOf = (user: UserType, groups: string[]): DirectoryUser => ({ sub: attribute(user, 'sub'), email: attribute(user, 'email'), name: attribute(user, 'name'), groups });
  const adminUsernames = async (): Promise<Set<string>> => {
    const names = new Set<string>();
    let token: string | undefined;
    do {
      const page = await client.send(new ListUsersInGroupCommand({ UserPoolId: userPoolId, GroupName: RIDER_ADMIN_GROUP, NextToken: token }));
      for (const user of page.Users ?? []) names.add(user.Username!);
      token = page.NextToken;
    } while (token);
    return names;
  };
  return {
    async setGroup(email, member) {
      const found = await client.send(new ListUsersCommand({ UserPoolId: userPoolId, Filter: `email = "${email.replace(/["\\]/g, '')}"`, Limit: 1 }));
      const user = found.Users?.[0];
      if (!user) return null;
      const input = { UserPoolId: userPoolId, Username: user.Username!, GroupName: RIDER_ADMIN_GROUP };
      await client.send(member ? new AdminAddUserToGroupCommand(input) : new AdminRemoveUserFromGroupCommand(input));
      return userOf(user, member ? [RIDER_ADMIN_GROUP] : []);
    },
    async list() {
      const admins = await adminUsernames();
      const users: DirectoryUser[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListUsersCommand({ UserPoolId: userPoolId, PaginationToken: token }));
        for (const user of page.Users ?? []) users.push(userOf(user, admins.has(user.Username!) ? [RIDER_ADMIN_GROUP] : []));
        token = page.PaginationToken;
      } while (token);
      return users;
    },
  };
}

export async function ridersCommand(command: string | undefined, email: string | undefined, aws: boolean): Promise<void> {
  if (command === 'token') return printAccessToken(email, aws);
  const directory = aws ? cognitoDirectory() : await localDirectory();
  switch (command) {
    case 'grant-admin':
    case 'revoke-admin': {
      if (!email) throw new RidersUsageError(`Usage: admin riders ${command} <email>`);
      const user = await directory.setGroup(email, command === 'grant-admin');
      if (!user) throw new RidersUsageError(`No rider with the email ${email}`);
      const shown = escapeControlCharacters(user.email);
      console.log(
        command === 'grant-admin'
          ? `${shown} is an admin: tokens issued from now on carry cognito:groups ["${RIDER_ADMIN_GROUP}"] (sign in again to get one).`
          : `${shown} is no longer an admin once their current token expires (an hour at most).`,
      );
      return;
    }
    case 'list': {
      for (const user of await directory.list()) {
        const account = (await getRider(user.sub)) ? 'account' : 'no account yet';
        console.log(escapeControlCharacters([user.sub, user.groups.includes(RIDER_ADMIN_GROUP) ? 'admin' : 'rider', account.padEnd(14), user.email, user.name].join('  ')));
      }
      return;
    }
    default:
      throw new RidersUsageError('Usage: admin riders grant-admin|revoke-admin|token <email> | admin riders list');
  }
}

/** `riders token <email>`: the token alone on stdout (for `TOKEN=$(…)`), what it is for on stderr. */
async function printAccessToken(email: string | undefined, aws: boolean): Promise<void> {
  if (aws) {
    throw new RidersUsageError(
      'riders token works on the local platform only: in AWS a rider gets tokens by signing in at Cognito (the rider app, or the consent screen for third-party apps); the CLI mints none.',
    );
  }
  if (!email) throw new RidersUsageError('Usage: admin riders token <email>');
  const issued = await (await localDirectory()).accessToken(email);
  if (!issued) throw new RidersUsageError(`No rider with the email ${email} at the local identity provider`);
  console.log(issued.token);
  console.error(
    `The access token of ${email} for the platform's rider app, valid for ${issued.expiresIn / 60} minutes: send it as "Authorization: Bearer <token>" to the rider, bikes and events endpoints of {app_base_url} (README, "Rider accounts").`,
  );
}
