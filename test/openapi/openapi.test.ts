import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { aliasOperationIds, openApiDocument, type DocumentEnvironment } from '../../functions/openapi/document.ts';
import { operations } from '../../functions/openapi/operations.ts';
import { endpoints, type ApiName } from '../../platform/endpoints.ts';

/**
 * The OpenAPI documents against the endpoint table they are generated from, and against Redocly's
 * lint (redocly.yaml: the recommended rules, examples checked against their schemas), offline.
 */

const environment: DocumentEnvironment = {
  baseUrl: 'https://api.spoke.example',
  appBaseUrl: 'https://app.spoke.example',
  identityProvider: { authorizeUrl: 'https://sign-in.spoke.example/oauth2/authorize', tokenUrl: 'https://sign-in.spoke.example/oauth2/token' },
};
const documents = { base: openApiDocument('base', environment), app: openApiDocument('app', environment) };
const pathsOf = (api: ApiName) => documents[api].paths as Record<string, Record<string, { operationId: string; security: unknown[] }>>;

describe('the OpenAPI documents', () => {
  it('describe every method of every path of the endpoint table, on its own API, and nothing else', () => {
    for (const api of ['base', 'app'] as const) {
      const described = Object.entries(pathsOf(api)).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\/$/, '')}`));
      const table = endpoints.filter((definition) => definition.api === api).flatMap((definition) => definition.paths.flatMap((path) => definition.methods.map((method) => `${method} ${path}`)));
      expect(described.sort()).toEqual(table.sort());
    }
    expect(Object.keys(operations).sort()).toEqual(endpoints.map((definition) => definition.id).sort());
  });

  it('give every operation a unique id, aliases included', () => {
    for (const api of ['base', 'app'] as const) {
      const ids = Object.values(pathsOf(api)).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
      expect(new Set(ids).size).toBe(ids.length);
    }
    const aliases = endpoints.flatMap((definition) => definition.paths.slice(1));
    expect(Object.keys(aliasOperationIds).sort()).toEqual(aliases.sort());
  });

  it("ask each operation for its endpoint's credential: none for public ones, the app's OAuth token only where spec 5.5 allows it", () => {
    const base = pathsOf('base');
    expect(base['/directions/v2/']!.post!.security).toContainEqual({ thirdPartyApp: [] });
    expect(base['/directions/v2/']!.post!.security).toContainEqual({ apiKey: [] });
    expect(base['/auth/v1/oauth/token']!.post!.security).toEqual([]);
    expect(pathsOf('app')['/user/']!.get!.security).toEqual([{ riderSession: [] }, { riderSignIn: [] }]);
    expect(pathsOf('app')['/events/nearby/']!.get!.security).toEqual([]);
    const oauthPaths = Object.entries(base).filter(([, item]) => Object.values(item).some((operation) => operation.security.some((requirement) => 'thirdPartyApp' in (requirement as object))));
    const accepted = endpoints.filter((definition) => definition.oauthAccess).flatMap((definition) => definition.paths);
    expect(oauthPaths.map(([path]) => path.replace(/\/$/, '')).sort()).toEqual(accepted.sort());
  });

  it("carry this deployment's addresses: servers and the authorization server's and identity provider's endpoints", () => {
    expect(documents.base.servers).toEqual([{ url: environment.baseUrl, description: '{base_url}' }]);
    expect(documents.app.servers).toEqual([{ url: environment.appBaseUrl, description: '{app_base_url}' }]);
    const flows = (api: ApiName, scheme: string) =>
      (documents[api].components as { securitySchemes: Record<string, { flows: { authorizationCode: Record<string, unknown> } }> }).securitySchemes[scheme]!.flows.authorizationCode;
    expect(flows('base', 'thirdPartyApp')).toMatchObject({ authorizationUrl: `${environment.baseUrl}/auth/v1/oauth/authorize`, tokenUrl: `${environment.baseUrl}/auth/v1/oauth/token` });
    expect(flows('app', 'riderSignIn')).toMatchObject({ authorizationUrl: environment.identityProvider.authorizeUrl, tokenUrl: environment.identityProvider.tokenUrl });
    expect(openApiDocument('base', { ...environment, baseUrl: 'https://elsewhere.example' }).info.version).toBe(documents.base.info.version);
  });

  it('mark what goes beyond the spec, and say so', () => {
    const schemas = (documents.base.components as { schemas: Record<string, { properties?: Record<string, unknown>; 'x-spoke-extension'?: boolean }> }).schemas;
    expect(schemas.SafetyBreakdown!['x-spoke-extension']).toBe(true);
    expect(schemas.AlternativeRoute!['x-spoke-extension']).toBe(true);
    expect(schemas.DirectionsResponse!.properties!.alternatives).toMatchObject({ 'x-spoke-extension': true });
    expect(documents.base.info.description).toContain('x-spoke-extension');
  });

  it('describe Idempotency-Key, its replays and refusals on the methods of idempotent endpoints that carry a body, and nowhere else', () => {
    type Described = { parameters?: { name: string; in: string; 'x-spoke-extension'?: boolean }[]; responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }> };
    const taking: string[] = [];
    for (const api of ['base', 'app'] as const) {
      for (const [path, item] of Object.entries(documents[api].paths as Record<string, Record<string, Described>>)) {
        for (const [method, operation] of Object.entries(item)) {
          const header = operation.parameters?.find((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key');
          // A response with a recorded example is the component's copy.
          const responses = (documents[api].components as { responses: Record<string, Described['responses'][string]> }).responses;
          const codeOf = (status: string) => {
            const response = operation.responses[status]!;
            const resolved = (response.$ref ? responses[response.$ref.split('/').at(-1)!] : response) as { content: Record<string, { schema: { properties: { code: { const: string } } } }> };
            return resolved.content['application/json']!.schema.properties.code.const;
          };
          if (!header) {
            // The one other 422: a route request beyond its compute budget.
            if (operation.responses['422']) expect(codeOf('422'), `${method} ${path}`).toBe('ROUTE_BUDGET_EXCEEDED');
            continue;
          }
          taking.push(`${method.toUpperCase()} ${path}`);
          expect(header['x-spoke-extension']).toBe(true);
          expect(codeOf('409')).toBe('IDEMPOTENCY_KEY_IN_USE');
          expect(codeOf('422')).toBe('IDEMPOTENCY_KEY_REUSED');
          const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))![1];
          expect(success.headers).toHaveProperty('Idempotent-Replayed');
        }
      }
    }
    const idempotent = endpoints.filter((definition) => definition.idempotent).flatMap((definition) => definition.methods.filter((method) => method !== 'GET').map((method) => `${method} ${definition.paths[0]}/`));
    expect(taking.sort()).toEqual(idempotent.sort());
    expect(taking).toEqual(expect.arrayContaining(['POST /reports/', 'POST /user/routes/']));
  });

  it("describe the gateway's own refusals on every operation", () => {
    for (const api of ['base', 'app'] as const) {
      for (const [path, item] of Object.entries(documents[api].paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
        for (const [method, operation] of Object.entries(item)) {
          expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['413', '431']));
          if (path.includes('{')) expect(Object.keys(operation.responses), `${method} ${path}`).toContain('400');
        }
      }
    }
  });

  describe('redocly lint', () => {
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'spoke-openapi-'));
      for (const api of ['base', 'app'] as const) await writeFile(join(folder, `${api}.json`), JSON.stringify(documents[api], null, 2));
    });
    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    it('accepts both documents with the recommended rules (redocly.yaml), offline', async () => {
      const run = promisify(execFile);
      const cli = join(projectRoot, 'node_modules/@redocly/cli/bin/cli.js');
      const result = await run(process.execPath, [cli, 'lint', '--config', join(projectRoot, 'redocly.yaml'), '--format', 'stylish', join(folder, 'base.json'), join(folder, 'app.json')], {
        cwd: projectRoot,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      }).catch((error: { stdout: string; stderr: string; code: number }) => error);
      const output = `${result.stdout}\n${result.stderr}`;
      expect('code' in result ? result.code : 0, output).toBe(0);
      expect(output).not.toMatch(/^\s*\d+:\d+\s+warning/m);
    });
  });
});
