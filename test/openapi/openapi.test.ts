import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { aliasOperationIds, openApiDocument, type DocumentEnvironment } from '../../functions/openapi/document.ts';
import { operations } from '../../functions/openapi/operations.ts';
import { endpoints, type ApiName } from '../../platform/endpoints.ts';

/**
 * The OpenAPI documents against the endpoint table they are generated from, against Redocly's
 * lint (redocly.yaml: the recommended rules, examples checked against their schemas), and against
 * the OpenAPI 3.1 schema itself through a second, independent validator, offline.
 */

/** The keywords whose value is a schema (JSON Schema 2020-12), where a boolean schema may stand. */
const SCHEMA_KEYWORDS = new Set(['items', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems']);

/** Where the document uses a boolean schema (`items: false`, say), which Stoplight Prism's validator rejects. */
function booleanSchemas(node: unknown, path = ''): string[] {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    typeof value === 'boolean' && SCHEMA_KEYWORDS.has(key) ? [`${path}/${key}`] : booleanSchemas(value, `${path}/${key}`),
  );
}

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
            type CodedBody = { properties: { code: { const: string } } };
            const resolved = (response.$ref ? responses[response.$ref.split('/').at(-1)!] : response) as { content: Record<string, { schema: CodedBody & { anyOf?: CodedBody[] } }> };
            const schema = resolved.content['application/json']!.schema;
            return (schema.anyOf ?? [schema]).map((body) => body.properties.code.const);
          };
          if (!header) {
            // The other 422s: a route request beyond its compute budget, and directions asked for as GPX without a route to write.
            if (operation.responses['422']) expect(codeOf('422'), `${method} ${path}`).toEqual(path.startsWith('/directions') ? ['ROUTE_BUDGET_EXCEEDED', 'NO_ROUTE'] : ['ROUTE_BUDGET_EXCEEDED']);
            continue;
          }
          taking.push(`${method.toUpperCase()} ${path}`);
          expect(header['x-spoke-extension']).toBe(true);
          expect(codeOf('409')).toEqual(['IDEMPOTENCY_KEY_IN_USE']);
          expect(codeOf('422')).toEqual(['IDEMPOTENCY_KEY_REUSED']);
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

  it('close tuples (coordinates) by their length, with no boolean schema that common tools reject', () => {
    for (const api of ['base', 'app'] as const) expect(booleanSchemas(documents[api]), api).toEqual([]);
    const directions = pathsOf('base')['/directions/v2/'] as unknown as { post: { requestBody: { content: Record<string, { schema: { properties: { coordinates: { items: unknown } } } }> } } };
    expect(directions.post.requestBody.content['application/json']!.schema.properties.coordinates.items).toMatchObject({
      type: 'array',
      prefixItems: [{ type: 'number', minimum: -180, maximum: 180 }, { type: 'number', minimum: -90, maximum: 90 }],
      minItems: 2,
      maxItems: 2,
    });
  });

  it('are valid OpenAPI 3.1 by a second validator (@seriousme/openapi-schema-validator)', async () => {
    for (const api of ['base', 'app'] as const) {
      const validator = new Validator();
      const result = await validator.validate(structuredClone(documents[api]));
      expect(result.errors ?? [], api).toEqual([]);
      expect(validator.version, api).toBe('3.1');
      expect(result.valid, api).toBe(true);
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
