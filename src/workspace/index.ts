/**
 * @module formletter/workspace: the human queue as web pages — sign-in with an operator token, the list, each item's exact draft, audited actions, live updates.
 */

export type { WorkspaceQueue, WorkspaceSource } from "./source.js";
export { outboxSource, storeSource } from "./source.js";
export type { OperatorCheck, Workspace, WorkspaceOptions } from "./workspace.js";
export { createWorkspace } from "./workspace.js";
