/**
 * Checks HTTP responses against an OpenAPI 3.1 document, as a client generated from it would expect them:
 * the operation (method and path template), the response declared for the status (`default` only for
 * 5xx), the media type, and the body against its schema with Ajv — JSON Schema 2020-12 and strict, so a
 * keyword Ajv does not know (3.0's `nullable` without a `type`, say) is an error, not ignored.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

interface MediaType {
  schema?: unknown;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
interface Operation {
  parameters?: { schema?: unknown; name: string; in: string }[];
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface CheckedResponse {
  method: string;
  /** The request path, query string included or not. */
  path: string;
  status: number;
  contentType: string | null;
  text: string;
}

/** Where the components' schemas live for Ajv: `#/components/schemas/X` becomes `${COMPONENTS}X`. */
const COMPONENTS = 'https://openapi.test/components/schemas/';
/** Keywords of the OpenAPI 3.1 schema dialect that JSON Schema 2020-12 does not have. */
const OPENAPI_KEYWORDS = ['discriminator', 'xml', 'externalDocs', 'example'];
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export class OpenApiResponses {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true });
  private readonly operations: { method: string; template: string; pattern: RegExp; operation: Operation }[] = [];
  private readonly validators = new Map<unknown, ValidateFunction>();
  private readonly components: string[];
  /** `GET /runs/{id} 404` for every response a checked response matched. */
  private readonly seen = new Set<string>();

  constructor(document: OpenApiDocument) {
    formats.default(this.ajv);
    this.ajv.addVocabulary(OPENAPI_KEYWORDS);
    const doc = withComponentIds(document);
    this.components = Object.keys(doc.components?.schemas ?? {});
    for (const name of this.components) this.ajv.addSchema(doc.components!.schemas![name] as object, COMPONENTS + name);
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!METHODS.has(method)) continue;
        // `[^/]*`: an empty segment reaches the route too (and fails its params' validation).
        const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')}$`);
        this.operations.push({ method: method.toUpperCase(), template, pattern, operation });
      }
    }
  }

  /** Compiles every schema the document holds (components, parameters, bodies, responses); returns what failed. */
  compileAll(): string[] {
    const problems: string[] = [];
    const compile = (where: string, schema: unknown) => {
      try {
        this.validator(schema);
      } catch (error) {
        problems.push(`${where}: ${(error as Error).message}`);
      }
    };
    for (const name of this.components) compile(`#/components/schemas/${name}`, { $ref: COMPONENTS + name });
    for (const { method, template, operation } of this.operations) {
      for (const p of operation.parameters ?? []) compile(`${method} ${template} parameter ${p.in} ${p.name}`, p.schema);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) compile(`${method} ${template} request ${type}`, media.schema);
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) compile(`${method} ${template} ${status} ${type}`, media.schema);
      }
    }
    return problems;
  }

  /** What the document gets wrong about this response ([] when it describes it). */
  check(response: CheckedResponse): string[] {
    const path = response.path.split('?')[0]!;
    const what = `${response.method} ${response.path} → ${response.status}`;
    const found = this.operations.find((o) => o.method === response.method && o.pattern.test(path));
    if (!found) return [`${what}: no operation in the document`];
    const key = String(response.status);
    const declared = found.operation.responses[key] ?? (response.status >= 500 ? found.operation.responses.default : undefined);
    if (!declared) return [`${what}: ${found.method} ${found.template} declares ${Object.keys(found.operation.responses).join(', ')}, not ${key}`];
    this.seen.add(`${found.method} ${found.template} ${found.operation.responses[key] ? key : 'default'}`);
    if (!declared.content) return response.text === '' ? [] : [`${what}: declared without a body, sent ${JSON.stringify(response.text.slice(0, 100))}`];
    const mediaType = response.contentType?.split(';')[0]!.trim().toLowerCase() ?? '';
    const media = declared.content[mediaType];
    if (!media) return [`${what}: sent ${mediaType || 'no content type'}, declared ${Object.keys(declared.content).join(', ')}`];
    let body: unknown = response.text;
    if (mediaType === 'application/json') {
      try {
        body = JSON.parse(response.text);
      } catch {
        return [`${what}: not JSON: ${JSON.stringify(response.text.slice(0, 100))}`];
      }
    }
    let validate: ValidateFunction;
    try {
      validate = this.validator(media.schema);
    } catch (error) {
      return [`${what}: its schema does not compile: ${(error as Error).message}`];
    }
    if (validate(body)) return [];
    return [`${what}: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })} — in ${JSON.stringify(body).slice(0, 300)}`];
  }

  /** Responses the document declares (other than `default`) that no checked response had. */
  unseen(): string[] {
    return this.operations.flatMap(({ method, template, operation }) =>
      Object.keys(operation.responses)
        .filter((status) => status !== 'default')
        .map((status) => `${method} ${template} ${status}`)
        .filter((declared) => !this.seen.has(declared)),
    );
  }

  private validator(schema: unknown): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema as object);
      this.validators.set(schema, validate);
    }
    return validate;
  }
}

/** A copy of the document whose `#/components/schemas/X` references point where Ajv holds the components. */
function withComponentIds(document: OpenApiDocument): OpenApiDocument {
  return JSON.parse(JSON.stringify(document), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/') ? COMPONENTS + value.slice('#/components/schemas/'.length) : value,
  ) as OpenApiDocument;
}
