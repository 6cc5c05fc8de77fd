import { expectTypeOf, test } from "vitest";
import type { SlotContext } from "../../../src/core/definition/slots.js";
import type { LocaleReason, LocaleSource } from "../../../src/core/definition/template-types.js";
import type {
  Decision,
  EscalateDecision,
  LocaleChoice,
  Message,
  SendDecision,
  TemplateConfig,
  TemplateLocaleConfig,
} from "../../../src/index.js";

test("localised decisions and the locale option are typed", () => {
  // A localised decision says which locale was used and why; a message, which tag it is written in.
  expectTypeOf<SendDecision["locale"]>().toEqualTypeOf<LocaleChoice | undefined>();
  expectTypeOf<EscalateDecision["locale"]>().toEqualTypeOf<LocaleChoice | undefined>();
  expectTypeOf<Message["locale"]>().toEqualTypeOf<string | undefined>();
  expectTypeOf<LocaleChoice["reason"]>().toEqualTypeOf<LocaleReason>();
  expectTypeOf<Extract<Decision, { outcome: "send" }>>().toEqualTypeOf<SendDecision>();

  // The locale comes from records: a "<slot>.<field>" path or a function of the records, nothing else.
  expectTypeOf<LocaleSource>().toEqualTypeOf<string | ((context: SlotContext) => unknown)>();
  expectTypeOf<TemplateConfig["locale"]>().toEqualTypeOf<TemplateLocaleConfig | undefined>();

  const fromNumber: TemplateLocaleConfig = {
    default: "en",
    // @ts-expect-error a locale is read from records, not given as a number
    from: 42,
    texts: {},
  };
  const missingWhat: TemplateLocaleConfig = {
    default: "en",
    from: "to.locale",
    texts: {},
    // @ts-expect-error a missing translation is an error or the default's text, nothing else
    missing: "skip",
  };
  void fromNumber;
  void missingWhat;
});
