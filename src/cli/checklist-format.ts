import type { Checklist, ChecklistItem, ChecklistStatus } from "../checklist/types.js";
import { printableLine } from "../core/message/sanitize.js";

const marks: Readonly<Record<ChecklistStatus, string>> = { pass: "✓", fail: "✗", warn: "!" };

/** Items by heading: each template's definition and controls, then the live checks on the sample. */
function groups(
  checklist: Checklist,
): { heading: string; template: string | undefined; items: ChecklistItem[] }[] {
  const byTemplate = new Map<string | undefined, ChecklistItem[]>();
  for (const item of checklist.items) {
    const list = byTemplate.get(item.template) ?? [];
    list.push(item);
    byTemplate.set(item.template, list);
  }
  return [...byTemplate].map(([template, items]) => {
    const delivery = items.find((item) => item.check === "delivery");
    return {
      template,
      heading:
        template === undefined
          ? "live checks on the sample ticket"
          : `template ${template}${delivery === undefined ? "" : `: ${delivery.summary}`}`,
      items: items.filter((item) => item.check !== "delivery"),
    };
  });
}

function tally(checklist: Checklist): string {
  const count = (status: ChecklistStatus) => checklist.items.filter((item) => item.status === status).length;
  return `${count("pass")} ✓, ${count("fail")} ✗, ${count("warn")} !`;
}

const checkName = (item: ChecklistItem) => item.check.replace(/_/g, " ");

/** The checklist as text: ✓/✗/! per item with its evidence indented below, and the verdict last. */
export function formatChecklistText(checklist: Checklist, title: string): string {
  const lines = [`pre-launch checklist of ${title}`, ""];
  for (const group of groups(checklist)) {
    lines.push(printableLine(group.heading));
    for (const item of group.items) {
      lines.push(`  ${marks[item.status]} ${checkName(item)}: ${printableLine(item.summary)}`);
      for (const line of item.evidence) lines.push(`      ${printableLine(line)}`);
    }
    lines.push("");
  }
  lines.push(
    checklist.ok
      ? `ready: no item is ✗ (${tally(checklist)})`
      : `NOT READY: fix every ✗ before launch (${tally(checklist)})`,
  );
  return `${lines.join("\n")}\n`;
}

/** Text from the catalog or the checks, made inert in Markdown: no markup, no HTML, no line breaks. */
export function inline(text: string): string {
  return printableLine(text).replace(/[\\`*_[\]<>|#!~]/g, (character) => `\\${character}`);
}

/** The checklist as Markdown: a section per template and one for the live checks, for a PR or a wiki. */
export function formatChecklistMarkdown(checklist: Checklist, title: string): string {
  const lines = [`# Pre-launch checklist: ${inline(title)}`, ""];
  for (const group of groups(checklist)) {
    lines.push(`## ${inline(group.heading)}`, "");
    for (const item of group.items) {
      lines.push(`- ${marks[item.status]} **${inline(checkName(item))}**: ${inline(item.summary)}`);
      for (const line of item.evidence) lines.push(`  - ${inline(line)}`);
    }
    lines.push("");
  }
  lines.push(
    checklist.ok
      ? `**Ready**: no item is ✗ (${tally(checklist)}).`
      : `**Not ready**: fix every ✗ before launch (${tally(checklist)}).`,
  );
  return `${lines.join("\n")}\n`;
}
