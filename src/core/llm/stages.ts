import type { PreparedTicket } from "../decision/ticket.js";
import type { Template } from "../definition/template-types.js";
import { merged } from "../merged.js";
import { handlePatterns } from "./handle-pattern.js";
import type { ToolSpec } from "./json-schema.js";
import { type FillablePlan, type OmittedTemplate, planCatalog, planOffer } from "./offer.js";
import { type LimitRules, type PreflightInput, type PreflightProblem, preflight } from "./preflight.js";
import { chooseTool, escalateTool, routesDiffer, templateTool } from "./specs.js";

/** What the tool builders read from a catalog. */
export interface ToolSource {
  readonly templates: readonly Template[];
  readonly escalationCodes: readonly string[];
  readonly records: { readonly names: readonly string[] };
}

/**
 * "ticket": tools made for the ticket (enums of its handles, only the templates it can fill).
 * "prefix": tools every ticket shares, so a provider's prompt cache holds them; the ticket's records
 * are only in `describe()`, after the tools.
 */
export type ToolsCache = "ticket" | "prefix";

/**
 * "single": one tool per template plus `escalate_to_human`. "choose_template": the tools did not fit
 * the limits, so stage one offers `choose_template` and `escalate_to_human`; pass the call to `next()`
 * for stage two. "slots": one template's tool plus `escalate_to_human`.
 */
export type ToolsStage = "single" | "choose_template" | "slots";

/** How a tool set or schema differs from one request with every template: why, and what was done. */
export interface Degradation {
  /** Each limit that was exceeded, in words, e.g. "22 strict tools is over Anthropic's 20 a request". */
  readonly reason: string;
  readonly problems: readonly PreflightProblem[];
  /**
   * Slots ("template.slot") whose handles were too many for the limits even in a tool of their own:
   * they take any string, and decide() checks the handle. Nothing is ever cut from a list.
   */
  readonly opened?: readonly string[];
}

/** One stage of a ticket's choices, before it is shaped for a provider. */
export interface Stage {
  readonly stage: ToolsStage;
  readonly specs: readonly ToolSpec[];
  /** The template ids this stage offers or lets the model choose from. */
  readonly templates: readonly string[];
  readonly omitted: readonly OmittedTemplate[];
  readonly widened: readonly string[];
  readonly degraded: Degradation | undefined;
  /** Limits still exceeded after degrading. */
  readonly problems: readonly PreflightProblem[];
}

/**
 * Plans a ticket's choices and picks the stage: every template at once when that fits `rules`, else
 * `choose_template` first. `measure` says what the limits see (each tool, or one combined schema);
 * `render` shapes a stage, and gets `forTemplate` to build any template's stage two on demand.
 */
export function buildStages<R>(
  source: ToolSource,
  ticket: PreparedTicket,
  rules: LimitRules,
  cache: ToolsCache,
  measure: (specs: readonly ToolSpec[]) => PreflightInput[],
  render: (stage: Stage, forTemplate: (templateId: string) => R | undefined) => R,
): R {
  const offer = planOffer(source.templates, ticket);
  const shared = cache === "prefix";
  // Shared tools offer every template; `omitted` still tells the caller which ones this ticket cannot fill.
  const { plans, widened } = shared ? planCatalog(source.templates) : offer;
  const { omitted } = offer;
  const pattern = handlePatterns(source.records.names);
  const openOf = (plan: FillablePlan): Set<string> =>
    new Set(shared ? plan.slots.filter(isRef).map((values) => values.slot.name) : []);
  const sayRoute = routesDiffer(source.templates);
  const tool = (plan: FillablePlan, open: ReadonlySet<string>) => templateTool(plan, pattern, open, sayRoute);
  const escalate = escalateTool(source.escalationCodes);
  const byId = new Map(plans.map((plan) => [plan.template.id, plan]));
  const make = (stage: Omit<Stage, "omitted" | "widened">): R => {
    const forTemplate = (templateId: string): R | undefined => {
      const plan = typeof templateId === "string" ? byId.get(templateId.toLowerCase()) : undefined;
      if (plan === undefined) return undefined;
      const fitted = fitTemplate(plan, escalate, rules, measure, tool, openOf(plan));
      return make({
        stage: "slots",
        specs: fitted.specs,
        templates: [plan.template.id],
        degraded: stageTwoDegradation(stage.degraded, fitted),
        problems: fitted.problems,
      });
    };
    return render(merged(stage, { omitted, widened }), forTemplate);
  };

  const ids = plans.map((plan) => plan.template.id);
  const single = [...plans.map((plan) => tool(plan, openOf(plan))), escalate];
  const problems = preflight(measure(single), rules);
  // With no template to choose, a first stage would offer an empty list: report the problems instead.
  if (problems.length === 0 || plans.length === 0) {
    return make({ stage: "single", specs: single, templates: ids, degraded: undefined, problems });
  }
  const stageOne = [chooseTool(plans.map((plan) => plan.template)), escalate];
  return make({
    stage: "choose_template",
    specs: stageOne,
    templates: ids,
    degraded: { reason: describeProblems(problems), problems },
    problems: preflight(measure(stageOne), rules),
  });
}

const enumRules = new Set<PreflightProblem["rule"]>(["enum_values", "large_enum", "string_chars"]);

/**
 * Stage two: one template's tool and the escalation tool. When even these are over an enum limit,
 * the ref slots with the most handles lose their enum one at a time, largest first, until they fit;
 * what was opened is reported, nothing is cut.
 */
function fitTemplate(
  plan: FillablePlan,
  escalate: ToolSpec,
  rules: LimitRules,
  measure: (specs: readonly ToolSpec[]) => PreflightInput[],
  tool: (plan: FillablePlan, open: ReadonlySet<string>) => ToolSpec,
  unlisted: ReadonlySet<string>,
): { specs: ToolSpec[]; problems: PreflightProblem[]; opened: string[]; causes: PreflightProblem[] } {
  const open = new Set<string>(unlisted);
  let specs = [tool(plan, open), escalate];
  let problems = preflight(measure(specs), rules);
  const causes = problems;
  const largest = plan.slots
    .filter((values) => isRef(values) && !open.has(values.slot.name))
    .sort((a, b) => b.values.length - a.values.length);
  for (const values of largest) {
    if (!problems.some((problem) => enumRules.has(problem.rule))) break;
    open.add(values.slot.name);
    specs = [tool(plan, open), escalate];
    problems = preflight(measure(specs), rules);
  }
  const opened = [...open].filter((slot) => !unlisted.has(slot));
  return { specs, problems, opened: opened.map((slot) => `${plan.template.id}.${slot}`), causes };
}

function isRef(values: FillablePlan["slots"][number]): boolean {
  return values.slot.slot.kind === "ref";
}

/** Stage two keeps stage one's reason, and adds the slots it had to open. */
function stageTwoDegradation(
  parent: Degradation | undefined,
  fitted: { opened: readonly string[]; causes: readonly PreflightProblem[] },
): Degradation | undefined {
  if (fitted.opened.length === 0) return parent;
  const problems = [...(parent?.problems ?? []), ...fitted.causes];
  return { reason: describeProblems(problems), problems, opened: fitted.opened };
}

function describeProblems(problems: readonly PreflightProblem[]): string {
  return problems.map((problem) => problem.detail).join("; ");
}
