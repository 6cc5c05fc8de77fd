import type { Template } from "../template.js";
import type { ChecklistItem } from "./types.js";

/**
 * The run-time controls of a template beyond its limits, one item each. This is where a control the
 * `Template` type gains (a value ceiling, a first-contact policy) gets its checklist line: a function of
 * the compiled template, returning ✓, ✗ or ! with its evidence, added to `controlChecks`.
 */
export type ControlCheck = (template: Template) => ChecklistItem | undefined;

/** The control checks run for every template, in order. */
export const controlChecks: readonly ControlCheck[] = [];

/** Every control item of `template`. */
export function controlItems(template: Template): ChecklistItem[] {
  return controlChecks.flatMap((check) => {
    const item = check(template);
    return item === undefined ? [] : [item];
  });
}
