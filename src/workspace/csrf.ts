import { randomBytes } from "node:crypto";
import { cookieValue } from "./cookies.js";
import { sameSecret } from "./sessions.js";

/**
 * Cross-site request forgery, refused twice over: every form that changes something carries a token
 * only the signed-in page knows (the session's, or before sign-in one paired with a SameSite=Strict
 * cookie), and a request a browser marks as coming from another site or origin is refused whatever it
 * carries.
 */

/** The form field every state-changing form carries. */
export const csrfField = "csrf";

/**
 * The cookie that pairs with the sign-in form's token (no session exists yet to hold it). Over TLS it is
 * `__Host-` prefixed like the session's, so a sibling host cannot plant a pair of its own (cookie tossing).
 */
const signInCookie = (secure: boolean) =>
  secure ? "__Host-formletter-queue-sign-in" : "formletter-queue-sign-in";

/** True when the browser says the request came from this origin (or says nothing, as a non-browser client). */
export function sameOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return false;
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  // A page sandboxed or opened from a file sends "null": not this origin.
  return origin === new URL(request.url).origin;
}

/** True when the form's token is the expected one. */
export function csrfMatches(given: unknown, expected: string): boolean {
  return typeof given === "string" && given !== "" && sameSecret(given, expected);
}

/** A fresh sign-in token, and the cookie that pairs with it. */
export function signInToken(path: string, secure: boolean): { token: string; cookie: string } {
  const token = randomBytes(32).toString("base64url");
  const cookie = `${signInCookie(secure)}=${token}; Max-Age=900; Path=${secure ? "/" : path || "/"}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
  return { token, cookie };
}

/** The sign-in cookie's token from a Cookie header. */
export function signInCookieOf(header: string | undefined, secure: boolean): string | undefined {
  return cookieValue(header, signInCookie(secure));
}
