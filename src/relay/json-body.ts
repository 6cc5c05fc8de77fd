/** A JSON request body, or why it was refused. `value` is undefined for an empty body. */
export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly refusal: "unsupported_media_type" | "body_too_large" | "body_malformed";
      readonly status: 415 | 413 | 400;
    };

const decoder = new TextDecoder("utf-8", { fatal: true });

/** True for `application/json`, with at most a UTF-8 charset parameter. */
function isJsonContentType(header: string | null | undefined): boolean {
  if (typeof header !== "string") return false;
  const [type = "", ...parameters] = header.split(";");
  if (type.trim().toLowerCase() !== "application/json") return false;
  return parameters.every((parameter) => {
    const [name = "", value = ""] = parameter.split("=");
    return name.trim().toLowerCase() !== "charset" || /^"?utf-8"?$/i.test(value.trim());
  });
}

/**
 * Reads a JSON body of at most `maxBytes`; an empty body is undefined, whatever its content type. A declared length over the cap is refused before a byte is
 * read; a body without a length (chunked) is read up to the cap and refused as soon as it passes it, so
 * a client cannot make the relay buffer more than the cap either way.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  const json = isJsonContentType(request.headers.get("content-type"));
  const declared = request.headers.get("content-length");
  let bytes: Uint8Array;
  if (declared !== null && /^\d+$/.test(declared)) {
    // A declared body that is not JSON is refused unread; a declared length over the cap likewise.
    if (!json && declared !== "0") return { ok: false, refusal: "unsupported_media_type", status: 415 };
    if (Number(declared) > maxBytes) return { ok: false, refusal: "body_too_large", status: 413 };
    // The HTTP parser holds the body to its declared length, so reading it whole stays under the cap.
    bytes = new Uint8Array(await request.arrayBuffer());
  } else {
    const read = await readCapped(request, json ? maxBytes : 0);
    if (read === undefined)
      return json
        ? { ok: false, refusal: "body_too_large", status: 413 }
        : { ok: false, refusal: "unsupported_media_type", status: 415 };
    bytes = read;
  }
  // No body needs no content type: an operator's POST with nothing to say (`curl -X POST …/claim`).
  if (bytes.byteLength === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) };
  } catch {
    return { ok: false, refusal: "body_malformed", status: 400 };
  }
}

/**
 * The body's bytes, whatever its content type, or undefined when it is over `maxBytes`: a declared
 * length over the cap is refused unread, a chunked body as soon as it passes it.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) return undefined;
  return readCapped(request, maxBytes);
}

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
