/**
 * Tool arguments as plain JSON data: what a framework hands over is copied through JSON, so a getter,
 * a Proxy, a cycle, a BigInt or a `toJSON` that throws cannot reach the outbox or a request body. What
 * cannot be copied is handed on as text that is not JSON, which decide() escalates as
 * `unparseable_output`, like any other unreadable output.
 */
export function jsonData(args: unknown): unknown {
  if (typeof args === "string" || args === undefined) return args;
  try {
    const text = JSON.stringify(args);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return "(arguments that are not JSON data)";
  }
}
