import { escapeForPage as e } from "../cli/html-page.js";

/** Why a sign-in was refused, in words: a closed list, so nothing the request carried is repeated. */
export const signInRefusals = {
  token_missing: "Paste an operator token to sign in.",
  token_invalid: "That is not an operator token this server accepts.",
  token_expired: "That operator token has expired: ask for a new one.",
  wrong_audience: "That is an agent's task token: only an operator token opens the workspace.",
  token_revoked: "That operator token has been revoked.",
  actor_invalid: "The token's operator name is not a readable name: ask for a new token.",
  form_expired: "The sign-in form expired or came from another page: sign in again from this one.",
  unavailable: "Tokens cannot be checked now: try again in a moment.",
} as const;

export type SignInRefusal = keyof typeof signInRefusals;

/** The sign-in form: one password field for the operator token, and the form's own token. */
export function signInBody(basePath: string, formToken: string, refusal: SignInRefusal | undefined): string {
  return `${refusal === undefined ? "" : `<p class="flash refused" role="alert">${e(signInRefusals[refusal])}</p>`}
<form class="action" method="post" action="${e(basePath)}/sign-in">
<input type="hidden" name="csrf" value="${e(formToken)}">
<label>operator token<input type="password" name="token" autocomplete="off" required></label>
<button type="submit">Sign in</button>
</form>
<p class="legend">The session ends after a while unused, and at the latest after a few hours. An agent's task token cannot open this page.</p>`;
}
