/**
 * The session cookie. Over TLS it is `__Host-` prefixed (the browser then requires Secure, path `/` and no
 * domain, so no other host or path can set it); over plain HTTP (loopback) it is scoped to the
 * workspace's path. Always HttpOnly (no script reads it) and SameSite=Strict (no other site's page
 * sends it).
 */
export interface CookieNames {
  readonly secure: boolean;
  readonly basePath: string;
}

const plainName = "formletter-queue";
const hostName = "__Host-formletter-queue";

function attributes(where: CookieNames): string {
  const path = where.secure ? "/" : where.basePath === "" ? "/" : where.basePath;
  return `Path=${path}; HttpOnly; SameSite=Strict${where.secure ? "; Secure" : ""}`;
}

/** The Set-Cookie value for a new session of `maxAgeSeconds`. */
export function sessionCookie(where: CookieNames, id: string, maxAgeSeconds: number): string {
  const name = where.secure ? hostName : plainName;
  return `${name}=${id}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${attributes(where)}`;
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedCookie(where: CookieNames): string {
  const name = where.secure ? hostName : plainName;
  return `${name}=; Max-Age=0; ${attributes(where)}`;
}

/**
 * The session id a request's Cookie header carries under the name the connection allows: over TLS only
 * the `__Host-` cookie counts, so a cookie set over plain HTTP cannot stand in for it.
 */
export function sessionIdOf(header: string | undefined, secure: boolean): string | undefined {
  return cookieValue(header, secure ? hostName : plainName);
}

/** The value of the cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
