/**
 * Scopes affect only what the id_token says about the rider; they never widen what an access
 * token can do (spec 5.5). `openid` asks for an id_token, `email` and `profile` add the rider's
 * email and name to it.
 */

export const supportedScopes = ['openid', 'email', 'profile'] as const;
export type Scope = (typeof supportedScopes)[number];

const descriptions: Record<Scope, string> = {
  openid: 'confirm who you are',
  email: 'see your email address',
  profile: 'see your name',
};

/** The requested scopes, de-duplicated, or the first unknown one. */
export function parseScope(scope: string | undefined): { scopes: Scope[] } | { unknown: string } {
  const requested = [...new Set((scope ?? '').split(' ').filter(Boolean))];
  const unknown = requested.find((name) => !(supportedScopes as readonly string[]).includes(name));
  return unknown ? { unknown } : { scopes: requested as Scope[] };
}

export const scopeList = (scope: string): Scope[] => scope.split(' ').filter(Boolean) as Scope[];

/** What the consent screen says the app may do, in the order of `supportedScopes`. */
export function scopeDescriptions(scope: string): string[] {
  const granted = new Set(scopeList(scope));
  return supportedScopes.filter((name) => granted.has(name)).map((name) => descriptions[name]);
}
