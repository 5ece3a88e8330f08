import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The platform's answers held to its OpenAPI documents: for an answer to METHOD url, the
 * operation the document describes at that path, the response it documents for the status, the
 * media type, the body (ajv, JSON Schema 2020-12, as OpenAPI 3.1 uses it) and the headers it
 * requires. What no operation describes has one documented answer too: a listed path with another
 * method answers 405 with `Allow`, every other path 404 `Unknown endpoint or API version`, or 400
 * when a segment does not percent-decode (the documents' description says all three), a CORS
 * preflight the gateway's 204.
 *
 * Schemas are compiled on first use and kept, so a test worker compiles each once.
 */

type Json = Record<string, unknown>;

interface Operation {
  responses: Record<string, Json>;
}

export interface Answer {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  body: string;
}

interface DocumentedApi {
  id: string;
  baseUrl: string;
  document: Json;
  /** Path templates as regular expressions, most literal segments first (the gateway's choice). */
  paths: { template: string; pattern: RegExp; literals: number }[];
}

/** Keywords of OpenAPI 3.1 schema objects and our extension that are not JSON Schema's. */
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs', 'x-spoke-extension'];

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function templatePattern(template: string): RegExp {
  const source = withoutTrailingSlash(template)
    .split('/')
    .map((segment) => (segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export class Contract {
  // OpenAPI 3.1 schemas list several types where a field takes them (a number or its digits).
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly apis: DocumentedApi[] = [];

  constructor(documents: readonly { baseUrl: string; document: Json }[]) {
    addFormats.default(this.ajv);
    for (const keyword of OPENAPI_SCHEMA_KEYWORDS) this.ajv.addKeyword(keyword);
    documents.forEach(({ baseUrl, document }, index) => {
      const id = `spoke-openapi-${index}`;
      // The document's component schemas as one schema resource; the rest of a document is no schema.
      const components = (document.components ?? {}) as { schemas?: Json };
      this.ajv.addSchema({ $id: id, $defs: rebase(components.schemas ?? {}, '') } as Json);
      const paths = Object.keys(document.paths as Json).map((template) => ({
        template,
        pattern: templatePattern(template),
        literals: template.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
      }));
      paths.sort((a, b) => b.literals - a.literals);
      this.apis.push({ id, baseUrl: baseUrl.replace(/\/+$/, ''), document, paths });
    });
  }

  /** Whether the URL is one of the documented APIs'. */
  covers(url: string): boolean {
    return this.apis.some((api) => url.startsWith(`${api.baseUrl}/`) || url === api.baseUrl);
  }

  /** The documented operation an answer is for (`GET /reports/{id}/`), or null when none is. */
  operationOf(answer: Pick<Answer, 'method' | 'url'>): string | null {
    const api = this.apis.find((candidate) => answer.url.startsWith(`${candidate.baseUrl}/`));
    if (!api) return null;
    const path = new URL(answer.url).pathname.slice(new URL(api.baseUrl).pathname.replace(/\/$/, '').length) || '/';
    const template = api.paths.find((candidate) => candidate.pattern.test(path))?.template;
    const item = template ? (api.document.paths as Record<string, Record<string, Operation>>)[template] : undefined;
    return item?.[answer.method.toLowerCase()] ? `${answer.method.toUpperCase()} ${api.baseUrl}${template}` : null;
  }

  /** Every way the answer differs from its API's document; empty when it holds. */
  problems(answer: Answer): string[] {
    const api = this.apis.find((candidate) => answer.url.startsWith(`${candidate.baseUrl}/`));
    if (!api) return [];
    const path = new URL(answer.url).pathname.slice(new URL(api.baseUrl).pathname.replace(/\/$/, '').length) || '/';
    const method = answer.method.toLowerCase();
    if (method === 'options') return answer.status === 204 && answer.headers.get('access-control-allow-origin') ? [] : [`a CORS preflight answered ${answer.status}`];
    const template = api.paths.find((candidate) => candidate.pattern.test(path))?.template;
    if (!template) return decodes(path) ? this.errorAnswer(api, answer, 404, 'an unknown path') : this.errorAnswer(api, answer, 400, 'an unknown path that does not percent-decode');
    const item = (api.document.paths as Record<string, Record<string, Operation>>)[template]!;
    const operation = item[method];
    if (!operation) {
      const problems = this.errorAnswer(api, answer, 405, `${answer.method} on a path that does not serve it`);
      return answer.headers.get('allow') ? problems : [...problems, 'a 405 without Allow'];
    }
    const pointer = `/paths/${escapePointer(template)}/${method}/responses/${answer.status}`;
    const documented = operation.responses[String(answer.status)];
    if (!documented) return [`status ${answer.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    const [response, responsePointer] = this.resolve(api, documented, pointer);
    return [...this.headerProblems(api, response, responsePointer, answer.headers), ...this.bodyProblems(api, response, responsePointer, answer)];
  }

  /**
   * Every way the examples (by operation id: a request body, answers by status) differ from the
   * schemas of the operations they are for; an example of no operation is a problem too.
   */
  exampleProblems(examples: Readonly<Record<string, { request?: unknown; responses: Record<string, unknown> }>>): string[] {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const api of this.apis) {
      for (const [template, item] of Object.entries(api.document.paths as Record<string, Record<string, Json>>)) {
        for (const [method, operation] of Object.entries(item)) {
          const id = operation.operationId as string;
          const example = examples[id];
          if (!example) continue;
          seen.add(id);
          const at = `/paths/${escapePointer(template)}/${method}`;
          if (example.request !== undefined) {
            const mediaType = Object.keys(((operation.requestBody as Json | undefined)?.content ?? {}) as Json)[0];
            if (!mediaType) problems.push(`${id}: a request example for an operation without a body`);
            else problems.push(...this.validate(api, `${at}/requestBody/content/${escapePointer(mediaType)}/schema`, example.request).map((problem) => `${id} request:${problem}`));
          }
          for (const [status, body] of Object.entries(example.responses)) {
            const documented = (operation.responses as Record<string, Json>)[status];
            if (!documented) {
              problems.push(`${id}: an example of undocumented status ${status}`);
              continue;
            }
            const [response, pointer] = this.resolve(api, documented, `${at}/responses/${status}`);
            if (!(response.content as Json | undefined)?.['application/json']) problems.push(`${id} ${status}: an example of an answer that is not JSON`);
            else problems.push(...this.validate(api, `${pointer}/content/application~1json/schema`, body).map((problem) => `${id} ${status}:${problem}`));
          }
        }
      }
    }
    for (const id of Object.keys(examples)) if (!seen.has(id)) problems.push(`${id}: examples of an operation no document has`);
    return problems;
  }

  /** The answers no operation describes: the spec's error body with the status the document's description names. */
  private errorAnswer(api: DocumentedApi, answer: Answer, status: number, what: string): string[] {
    if (answer.status !== status) return [`${what} answered ${answer.status}, not ${status}`];
    return this.jsonProblems(api, '/components/schemas/Error', answer.body);
  }

  /** An OpenAPI `$ref` (a response or a header in the components) followed to what it names, with its pointer. */
  private resolve(api: DocumentedApi, value: Json, pointer: string): [Json, string] {
    const reference = value.$ref;
    if (typeof reference !== 'string') return [value, pointer];
    const target = reference.slice(1);
    const found = target
      .split('/')
      .slice(1)
      .reduce<unknown>((node, segment) => (node as Json | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], api.document);
    if (!found) throw new Error(`Unresolvable ${reference} in ${api.id}`);
    return this.resolve(api, found as Json, target);
  }

  private headerProblems(api: DocumentedApi, response: Json, pointer: string, headers: Headers): string[] {
    const problems: string[] = [];
    for (const [name, declared] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const [header, headerPointer] = this.resolve(api, declared, `${pointer}/headers/${escapePointer(name)}`);
      const value = headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is required`);
        continue;
      }
      if (header.schema) problems.push(...this.validate(api, `${headerPointer}/schema`, value).map((problem) => `header ${name}${problem}`));
    }
    return problems;
  }

  private bodyProblems(api: DocumentedApi, response: Json, pointer: string, answer: Answer): string[] {
    const content = response.content as Record<string, Json> | undefined;
    if (!content) return answer.body === '' ? [] : [`a body where the document describes none`];
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!(mediaType in content)) return [`Content-Type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`];
    if (mediaType !== 'application/json') return [];
    return this.jsonProblems(api, `${pointer}/content/${escapePointer(mediaType)}/schema`, answer.body);
  }

  private jsonProblems(api: DocumentedApi, schemaPointer: string, body: string): string[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return ['a body that is not JSON'];
    }
    return this.validate(api, schemaPointer, parsed);
  }

  private validate(api: DocumentedApi, schemaPointer: string, value: unknown): string[] {
    const key = `${api.id}#${schemaPointer}`;
    let validator = this.validators.get(key);
    if (!validator) {
      const component = /^\/components\/schemas\/([^/]+)$/.exec(schemaPointer)?.[1];
      validator = this.ajv.compile({ $ref: component ? `${api.id}#/$defs/${component}` : this.schemaResource(api, schemaPointer) });
      this.validators.set(key, validator);
    }
    if (validator(value)) return [];
    return (validator.errors ?? []).slice(0, 8).map((error) => `${error.instancePath || ' body'} ${error.message ?? ''}${error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`);
  }

  /** A schema elsewhere in the document (an operation's, a header's) as a resource of its own. */
  private schemaResource(api: DocumentedApi, pointer: string): string {
    const id = `${api.id}${pointer.replace(/[^A-Za-z0-9]+/g, '-')}`;
    if (!this.ajv.getSchema(id)) {
      const schema = pointer
        .split('/')
        .slice(1)
        .reduce<unknown>((node, segment) => (node as Json)[segment.replace(/~1/g, '/').replace(/~0/g, '~')], api.document) as Json;
      this.ajv.addSchema({ ...(rebase(schema, api.id) as Json), $id: id });
    }
    return id;
  }
}

/** A copy of `schema` whose references to component schemas name them in `resource`'s `$defs`. */
function rebase(schema: unknown, resource: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rebase(item, resource));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/') ? `${resource}#/$defs/${value.slice('#/components/schemas/'.length)}` : rebase(value, resource),
    ]),
  );
}
