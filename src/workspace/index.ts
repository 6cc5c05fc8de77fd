/**
 * @module the human queue as web pages — sign-in with an operator token, the list, each item's exact draft, audited actions, live updates. Reached through the relay (`createRelay({ workspace })`, `formletter serve`) and `formletter queue --ui`, not a subpath of its own: its options are the relay's.
 */

export type { WorkspaceQueue, WorkspaceSource } from "./source.js";
export { outboxSource, storeSource } from "./source.js";
export type { OperatorCheck, Workspace, WorkspaceOptions } from "./workspace.js";
export { createWorkspace } from "./workspace.js";
