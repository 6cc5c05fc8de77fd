import type { Catalog } from "../core/decision/catalog.js";
import { clip } from "../core/message/sanitize.js";
import { hostileOutputs } from "../testing/corpus.js";
import type { ChecklistItem } from "./types.js";

/** A corpus entry aimed at a template: its `template` "x" stands for each of the catalog's ids in turn. */
function aimedAt(output: unknown, id: string): unknown {
  if (typeof output !== "object" || output === null || Array.isArray(output)) return output;
  return (output as { template?: unknown }).template === "x" ? { ...output, template: id } : output;
}

function describeOutput(output: unknown): string {
  try {
    return clip(
      typeof output === "string" ? JSON.stringify(output) : (JSON.stringify(output) ?? String(output)),
      60,
    );
  } catch {
    return "an output that is not JSON";
  }
}

/**
 * Every malformed model output of the hostile corpus, aimed at each template where it names one, decided
 * on the sample: each must end as an escalation (not a send, not a draft waiting for approval) and none
 * may throw.
 */
export function hostileOutputsItem(catalog: Catalog, sample: unknown): ChecklistItem {
  let decisions = 0;
  let escalated = 0;
  const failures: string[] = [];
  const reasons = new Map<string, number>();
  for (const [index, output] of hostileOutputs.entries()) {
    const aimed = new Map<string, unknown>();
    for (const template of catalog.templates)
      aimed.set(describeOutput(aimedAt(output, template.id)), aimedAt(output, template.id));
    for (const candidate of aimed.values()) {
      decisions += 1;
      try {
        const decision = catalog.decide(candidate, sample);
        if (decision.outcome === "escalate" && decision.reason !== "approval_required") {
          escalated += 1;
          reasons.set(decision.reason, (reasons.get(decision.reason) ?? 0) + 1);
        } else {
          failures.push(
            `output #${index + 1} ${describeOutput(candidate)} ${decision.outcome === "send" ? `was sent (template ${decision.template})` : "reached a draft for approval"}`,
          );
        }
      } catch (error) {
        failures.push(
          `output #${index + 1} ${describeOutput(candidate)} threw: ${clip(error instanceof Error ? error.message : String(error), 80)}`,
        );
      }
    }
  }
  const byReason = [...reasons].map(([reason, count]) => `${reason} ${count}`).join(", ");
  const counted = `${hostileOutputs.length} malformed outputs, ${decisions} decisions: ${escalated} escalated`;
  return {
    section: "live",
    template: undefined,
    check: "hostile_outputs",
    status: failures.length === 0 ? "pass" : "fail",
    summary:
      failures.length === 0
        ? `${counted}, none sent or threw`
        : `${counted}, ${failures.length} sent, drafted or threw`,
    evidence: [
      ...(failures.length > 0 ? [`first failing case: ${failures[0]}`] : []),
      ...(byReason === "" ? [] : [`by reason: ${byReason}`]),
    ],
  };
}
