import { describe, expect, it } from "vitest";
import { noneValue, toolNames } from "../../../src/core/llm/index.js";
import { createCatalog, defineTemplate, format, isFormletterError } from "../../../src/index.js";
import {
  alan,
  booked,
  cancelled,
  catalog,
  clinicTicket,
  doctor,
  grace,
  handleOf,
  nurse,
  records,
  reminder,
  templates,
} from "../../fixtures/clinic.js";
import { thrown } from "../../fixtures/expect.js";
import { openaiParameters, providers, sellerTickets } from "./fixtures.js";
import {
  aiSdkToolsProblems,
  anthropicToolsProblems,
  openaiChatToolsProblems,
  openaiResponsesToolsProblems,
} from "./provider-rules.js";

const ticket = clinicTicket();
const h = (collection: string, id: string, on = ticket) => handleOf(on, collection, id);

describe("catalog.tools() follows each provider's published rules", () => {
  const tickets = [ticket, ...sellerTickets.slice(0, 40).map((line) => line.records)];
  const sellerCatalogPromise = import("../../../templates/seller.js").then((module) => module.sellerCatalog);

  it.each([
    ["openai", openaiChatToolsProblems],
    ["openai-responses", openaiResponsesToolsProblems],
    ["anthropic", anthropicToolsProblems],
    ["ai-sdk", aiSdkToolsProblems],
  ] as const)("%s", async (provider, problemsOf) => {
    const seller = await sellerCatalogPromise;
    for (const [index, records] of tickets.entries()) {
      const owner = index === 0 ? catalog : seller;
      // Hostile tickets with invalid records are records_invalid before any tool is built.
      if (!owner.prepare(records).ok) continue;
      const result = owner.tools(records, { provider });
      expect(problemsOf(result.tools), `${provider}, ticket ${index}`).toEqual([]);
      expect(result.stage).toBe("single");
      expect(result.problems).toEqual([]);
      expect(result.degraded).toBeUndefined();
    }
  });

  it("shapes one set of tools four ways, with the same names, descriptions and parameters", () => {
    const chat = catalog.tools(ticket, { provider: "openai" }).tools;
    const responses = catalog.tools(ticket, { provider: "openai-responses" }).tools;
    const anthropic = catalog.tools(ticket, { provider: "anthropic" }).tools;
    const sdk = catalog.tools(ticket, { provider: "ai-sdk" }).tools;
    expect(responses.map(({ name, description, parameters }) => ({ name, description, parameters }))).toEqual(
      chat.map(({ function: { name, description, parameters } }) => ({ name, description, parameters })),
    );
    expect(
      anthropic.map(({ name, description, input_schema }) => ({
        name,
        description,
        parameters: input_schema,
      })),
    ).toEqual(
      chat.map(({ function: { name, description, parameters } }) => ({ name, description, parameters })),
    );
    expect(Object.keys(sdk)).toEqual(chat.map((tool) => tool.function.name));
    for (const tool of chat) {
      expect(sdk[tool.function.name]).toEqual({
        description: tool.function.description,
        inputSchema: tool.function.parameters,
      });
    }
    for (const tool of chat) expect(tool.function.strict).toBe(true);
    for (const tool of responses) expect(tool.strict).toBe(true);
    for (const tool of anthropic) expect(tool.strict).toBe(true);
  });

  it("returns fresh objects: changing one result changes no other", () => {
    const first = catalog.tools(ticket, { provider: "openai" });
    first.tools[0]?.function.parameters.required.push("mangled");
    first.tools.pop();
    const second = catalog.tools(ticket, { provider: "openai" });
    expect(second.tools[0]?.function.parameters.required).not.toContain("mangled");
    expect(second.tools).toHaveLength(templates.length + 1);
  });

  it("rejects an unknown provider at the call, naming the valid ones", () => {
    // @ts-expect-error: not a provider
    expect(() => catalog.tools(ticket, { provider: "gemini" })).toThrow(/"openai", "openai-responses"/);
    // @ts-expect-error: options are required
    expect(() => catalog.tools(ticket)).toThrow(TypeError);
  });

  it("throws records_invalid for invalid records, like describe()", () => {
    let error: unknown;
    try {
      catalog.tools({ ticketId: "T-1", patients: "nope" }, { provider: "openai" });
    } catch (caught) {
      error = caught;
    }
    expect(isFormletterError(error) && error.code).toBe("records_invalid");
  });
});

describe("one tool per template the ticket can fill, and escalate_to_human", () => {
  const result = catalog.tools(ticket, { provider: "openai" });

  it("names the tools by template id, in catalog order, escalation last", () => {
    expect(result.tools.map((tool) => tool.function.name)).toEqual([
      ...templates.map((template) => template.id),
      toolNames.escalate,
    ]);
    expect(result.templates).toEqual(templates.map((template) => template.id));
    expect(result.omitted).toEqual([]);
  });

  it("describes each tool from the template's own description, channel and audience", () => {
    for (const template of templates) {
      const tool = result.tools.find((candidate) => candidate.function.name === template.id);
      expect(tool?.function.description).toContain(template.description);
      // The clinic's templates go to different audiences: each tool says which.
      expect(tool?.function.description).toContain(`${template.channel} to the ${template.audience}`);
    }
    const cancellation = result.tools.find((tool) => tool.function.name === "cancellation_notice");
    expect(cancellation?.function.description).toMatch(/a person approves it first/);
  });

  it("says a channel and audience every template shares nowhere, rather than in every tool", () => {
    const patientsOnly = createCatalog(
      records,
      templates.filter((template) => template.audience === "patient" && template.channel === "email"),
    );
    const tools = patientsOnly.tools(ticket, { provider: "openai" }).tools;
    expect(tools.length).toBeGreaterThan(1);
    for (const tool of tools) expect(tool.function.description).not.toMatch(/ to the patient/);
  });

  it("requires every parameter and allows no other", () => {
    for (const tool of result.tools) {
      const { parameters } = tool.function;
      expect(parameters.additionalProperties).toBe(false);
      expect([...parameters.required].sort()).toEqual(Object.keys(parameters.properties).sort());
    }
  });

  it("offers escalate_to_human with the catalog's closed list of codes", () => {
    const escalate = openaiParameters(result, toolNames.escalate);
    expect(escalate?.properties.code?.enum).toEqual(catalog.escalationCodes);
    expect(escalate?.properties.note?.type).toBe("string");
    const custom = createCatalog(records, [reminder], { escalationCodes: ["complaint", "legal"] });
    const tools = custom.tools(ticket, { provider: "anthropic" }).tools;
    expect(tools.at(-1)?.input_schema.properties.code?.enum).toEqual(["complaint", "legal"]);
  });

  it("lists this ticket's handles that fit each ref slot, and each choice slot's keys", () => {
    const reminderTool = openaiParameters(result, "appointment_reminder");
    // Only the booked appointment passes the slot's `where`; only its clinician and patient fit.
    expect(reminderTool?.properties.appointment?.enum).toEqual([h("appointments", "A-1")]);
    expect(reminderTool?.properties.patient?.enum).toEqual([h("patients", "P-1")]);
    expect(reminderTool?.properties.clinician?.enum).toEqual([h("clinicians", "C-1")]);
    expect(reminderTool?.properties.prep?.enum).toEqual(["fasting", "documents", "none"]);
    // Without a `where`, every clinician fits.
    const whatsapp = openaiParameters(result, "whatsapp_confirm");
    expect(whatsapp?.properties.clinician?.enum).toEqual([h("clinicians", "C-1"), h("clinicians", "C-2")]);
    // `match` joins: the SMS reminder's clinician is the booked appointment's.
    expect(openaiParameters(result, "sms_reminder")?.properties.clinician?.enum).toEqual([
      h("clinicians", "C-1"),
    ]);
  });

  it("lists every record that fits for SOME valid choice of the earlier slots; decide() checks the combination", () => {
    const two = clinicTicket({ appointments: [booked, { ...cancelled, status: "booked" }] });
    const tools = catalog.tools(two, { provider: "openai" });
    const reminderTool = openaiParameters(tools, "appointment_reminder");
    expect(reminderTool?.properties.clinician?.enum).toEqual([
      h("clinicians", "C-1", two),
      h("clinicians", "C-2", two),
    ]);
    // Alan is listed (he fits the second appointment) but not with the first: decide() rejects the pair.
    const decision = catalog.decide(
      catalog.parseToolCall("appointment_reminder", {
        appointment: h("appointments", "A-1", two),
        patient: h("patients", "P-1", two),
        clinician: h("clinicians", "C-2", two),
        prep: "none",
      }),
      two,
    );
    expect(decision).toMatchObject({ outcome: "escalate", reason: "slot_rejected" });
    expect(decision.outcome === "escalate" && decision.hint).toContain(h("clinicians", "C-1", two));
  });

  it("leaves out a recipient that the records fix, and decide() fills it", () => {
    for (const tool of result.tools)
      expect(Object.keys(tool.function.parameters.properties)).not.toContain("to");
  });

  it("asks for the recipient when the records leave a choice, listing only those that fit", () => {
    const second = { ...nurse, id: "S-3", chatId: "U0NURSE2" };
    const twoNurses = clinicTicket({ staff: [nurse, doctor, second] });
    const tools = catalog.tools(twoNurses, { provider: "openai" });
    const page = openaiParameters(tools, "oncall_page");
    expect(page?.properties.to?.enum).toEqual([h("staff", "S-1", twoNurses), h("staff", "S-3", twoNurses)]);
    expect(page?.required).toContain("to");
    // Every other template still has one recipient per choice.
    expect(openaiParameters(tools, "appointment_reminder")?.properties.to).toBeUndefined();
  });

  it("asks for the recipient when SOME choice of the other slots leaves more than one", () => {
    const { slot } = records;
    // Pain pages anyone on staff; a long wait pages nurses only.
    const page = defineTemplate(records, {
      id: "staff_page",
      description: "Page staff about a waiting patient",
      audience: "oncall",
      effect: "informational",
      channel: "chat",
      to: slot.ref("staff", {
        show: "chatId",
        where: (member, { slots }) => slots.need === "pain" || member.role === "nurse",
      }),
      body: "A patient in room {{appointment}} {{need}}.",
      slots: {
        appointment: slot.ref("appointments", { show: "room" }),
        need: slot.choice({ pain: "reports pain", late: "has waited over an hour" }),
      },
      limits: { perTicket: 1, perDay: 10 },
    });
    const paging = createCatalog(records, [page]);
    const both = openaiParameters(paging.tools(ticket, { provider: "openai" }), "staff_page");
    expect(both?.properties.to?.enum).toEqual([h("staff", "S-1"), h("staff", "S-2")]);
    const nurseOnly = clinicTicket({ staff: [nurse] });
    const one = openaiParameters(paging.tools(nurseOnly, { provider: "openai" }), "staff_page");
    expect(one?.properties.to).toBeUndefined();
  });

  it('offers "(none)" for optional slots instead of a nullable type, and parseToolCall maps it to null', () => {
    const handover = openaiParameters(result, "clinician_handover");
    expect(handover?.properties.urgency).toMatchObject({
      type: "string",
      enum: ["routine", "soon", "today", noneValue],
    });
    expect(handover?.properties.urgency?.description).toContain(`"${noneValue}"`);
    expect(JSON.stringify(result.tools)).not.toContain('"null"');
    const proposal = catalog.parseToolCall("clinician_handover", {
      appointment: h("appointments", "A-1"),
      patient: h("patients", "P-1"),
      urgency: noneValue,
    });
    expect(proposal).toEqual({
      template: "clinician_handover",
      slots: { appointment: h("appointments", "A-1"), patient: h("patients", "P-1"), urgency: null },
    });
    expect(catalog.decide(proposal, ticket)).toMatchObject({ outcome: "send" });
  });

  it("says every key's label, leaving out only one that spells its key", () => {
    const { slot } = records;
    const notice = defineTemplate(records, {
      id: "fee_notice",
      description: "Tell a patient about a fee",
      audience: "patient",
      effect: "informational",
      channel: "email",
      to: slot.ref("patients", { show: "email", as: format.email() }),
      subject: "A fee",
      body: "Your appointment {{appointment}}: {{fee}}.",
      slots: {
        appointment: slot.ref("appointments", { show: "room" }),
        fee: slot.choice({
          waived: "the fee is waived",
          no_show: "No show",
          late: "you cancelled less than a day before, so half the fee is charged",
          annual: "the annual fee",
        }),
      },
      limits: { perTicket: 1, perDay: 10 },
    });
    const fees = createCatalog(records, [notice]);
    const fee = openaiParameters(fees.tools(ticket, { provider: "openai" }), "fee_notice")?.properties.fee;
    expect(fee?.enum).toEqual(["waived", "no_show", "late", "annual"]);
    // A label close to its key still draws a distinction ("the annual fee", not any fee): it is said.
    expect(fee?.description).toBe(
      "waived = the fee is waived; late = you cancelled less than a day before, so half the fee is charged; annual = the annual fee.",
    );
  });

  it("never offers derived slots to the model", () => {
    expect(openaiParameters(result, "clinician_handover")?.properties.visits).toBeUndefined();
  });
});

describe("templates the ticket cannot fill are left out, and counted", () => {
  it("a required ref with no fitting record: no_candidates, naming the slot", () => {
    const noBooking = clinicTicket({ appointments: [cancelled] });
    const result = catalog.tools(noBooking, { provider: "anthropic" });
    expect(result.omitted).toEqual([
      { template: "appointment_reminder", reason: "no_candidates", slot: "appointment" },
      { template: "sms_reminder", reason: "no_candidates", slot: "appointment" },
      { template: "whatsapp_confirm", reason: "no_candidates", slot: "appointment" },
      { template: "room_notice", reason: "no_candidates", slot: "appointment" },
    ]);
    const names = result.tools.map((tool) => tool.name);
    for (const { template } of result.omitted) expect(names).not.toContain(template);
    expect(names).toContain("clinician_handover");
    expect(result.templates).toEqual(names.slice(0, -1));
  });

  it("a later slot with no record for any earlier choice: names that slot", () => {
    const noNurse = clinicTicket({ staff: [doctor] });
    expect(catalog.tools(noNurse, { provider: "openai" }).omitted).toEqual([
      { template: "oncall_page", reason: "no_candidates", slot: "to" },
    ]);
    const strangers = clinicTicket({
      clinicians: [
        { ...grace, id: "C-7" },
        { ...alan, id: "C-8" },
      ],
    });
    const omitted = catalog.tools(strangers, { provider: "openai" }).omitted;
    expect(omitted).toContainEqual({
      template: "appointment_reminder",
      reason: "no_candidates",
      slot: "clinician",
    });
    expect(omitted).toContainEqual({ template: "clinician_handover", reason: "no_candidates", slot: "to" });
  });

  it("a required derived slot with no value: no_value", () => {
    const { slot } = records;
    const empty = defineTemplate(records, {
      id: "empty_derived",
      description: "A template whose derived slot never has a value",
      audience: "patient",
      effect: "informational",
      channel: "email",
      to: slot.ref("patients", { show: "email", as: format.email() }),
      subject: "Note",
      body: "Note: {{nothing}}",
      slots: { nothing: slot.derived(() => undefined) },
      limits: { perTicket: 1, perDay: 1 },
    });
    const result = createCatalog(records, [reminder, empty]).tools(ticket, { provider: "openai" });
    expect(result.omitted).toEqual([{ template: "empty_derived", reason: "no_value", slot: "nothing" }]);
  });

  it.each(Object.values(toolNames))("refuses a template whose id is the tool name %s at definition", (id) => {
    const { slot } = records;
    const error = thrown(() =>
      defineTemplate(records, {
        id,
        description: "A template that takes the name of a tool formletter adds",
        audience: "patient",
        effect: "informational",
        channel: "email",
        to: slot.ref("patients", { show: "email", as: format.email() }),
        subject: "Hello",
        body: "Hello {{patient}}",
        slots: { patient: slot.ref("patients", { show: "name" }) },
        limits: { perTicket: 1, perDay: 1 },
      }),
    );
    expect(error.code).toBe("template_invalid");
    expect(error.template).toBe(id);
    expect(error.message).toContain("the name of a tool formletter adds");
  });

  it("with nothing fillable, offers only escalate_to_human", () => {
    const bare = { ticketId: "T-EMPTY" };
    for (const provider of providers) {
      const result = catalog.tools(bare, { provider });
      expect(result.templates).toEqual([]);
      expect(result.omitted).toHaveLength(templates.length);
      expect(result.stage).toBe("single");
    }
    expect(catalog.tools(bare, { provider: "openai" }).tools.map((tool) => tool.function.name)).toEqual([
      toolNames.escalate,
    ]);
  });
});
