/**
 * The relay's replies checked against its own OpenAPI document: the harness runs every answer a relay
 * test receives through `checkReply`, so each relay test is also a contract test. A path, method or
 * status the document does not list fails, and so does a body its schema refuses.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

type OpenApi = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};

interface Contract {
  readonly document: OpenApi;
  readonly ajv: Ajv2020;
  readonly validators: Map<string, ValidateFunction>;
}

const contracts = new Map<string, Promise<Contract>>();
const documentId = "relay-openapi";

/** The relay's document, fetched once per relay (its base URL), with a validator built on it. */
export function contractOf(url: string): Promise<Contract> {
  let contract = contracts.get(url);
  if (contract === undefined) {
    contract = (async () => {
      const answer = await fetch(`${url}/openapi.json`);
      if (answer.status !== 200) throw new Error(`${url}/openapi.json answered ${answer.status}`);
      const document = (await answer.json()) as OpenApi;
      // The document is not a JSON Schema itself, but its schemas are found in it by JSON pointer, and
      // their $refs ("#/components/schemas/…") resolve against it.
      const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
      ajv.addSchema(document, documentId);
      return { document, ajv, validators: new Map() };
    })();
    contracts.set(url, contract);
  }
  return contract;
}

const pointerPart = (part: string) => part.replace(/~/g, "~0").replace(/\//g, "~1");

/** The document's path template that `path` (without its query) matches, if any. */
function templateOf(document: OpenApi, path: string): string | undefined {
  const bare = path.split("?")[0] ?? path;
  if (Object.hasOwn(document.paths, bare)) return bare;
  return Object.keys(document.paths).find((template) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`).test(
      bare,
    ),
  );
}

/** What a reply's check found wrong, or undefined when it is as documented. */
export async function replyProblem(
  url: string,
  method: string,
  path: string,
  reply: { status: number; headers: Headers; body: unknown },
  undocumented = false,
): Promise<string | undefined> {
  const { document, ajv, validators } = await contractOf(url);
  const where = `${method} ${path} → ${reply.status}`;
  const template = templateOf(document, path);
  const operation = template === undefined ? undefined : document.paths[template]?.[method.toLowerCase()];
  if (undocumented) {
    // A request the relay has no endpoint for: the document must not list it, and the answer is the
    // documented error body.
    if (operation !== undefined)
      return `${where}: expected an undocumented endpoint, but the document lists it`;
    // A HEAD answer has no body to check: its status says the endpoint does not exist.
    if (method === "HEAD") return reply.status === 404 ? undefined : `${where}: expected 404`;
    const validate = ajv.getSchema(`${documentId}#/components/schemas/Error`);
    if (validate === undefined || !validate(reply.body)) return `${where}: not the documented error body`;
    return undefined;
  }
  if (operation === undefined) return `${where}: the OpenAPI document has no ${method} ${path}`;
  const response = operation.responses[String(reply.status)];
  if (response === undefined) return `${where}: status ${reply.status} is not documented`;
  const mediaType = (reply.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (response.content?.[mediaType] === undefined)
    return `${where}: content type ${mediaType} is not documented`;
  if (mediaType !== "application/json") return undefined;
  const pointer = `${documentId}#/paths/${pointerPart(template ?? "")}/${method.toLowerCase()}/responses/${reply.status}/content/${pointerPart(mediaType)}/schema`;
  let validate = validators.get(pointer);
  if (validate === undefined) {
    validate = ajv.getSchema(pointer);
    if (validate === undefined) return `${where}: no schema at ${pointer}`;
    validators.set(pointer, validate);
  }
  if (validate(reply.body)) return undefined;
  return `${where}: the body does not match the document: ${ajv.errorsText(validate.errors)}`;
}
