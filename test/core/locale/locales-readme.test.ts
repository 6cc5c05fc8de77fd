import { readFileSync } from "node:fs";
import { de, es } from "date-fns/locale";
import { expect, it } from "vitest";
import { z } from "zod";
import { createCatalog, defineRecords, defineTemplate, untrusted } from "../../../src/index.js";

const records = defineRecords({
  orders: z.object({ id: z.string(), number: z.string(), sellerId: z.string() }),
  sellers: z.object({ id: z.string(), email: z.email(), locale: untrusted("seller", z.string()).optional() }),
});
const { slot } = records;

it("runs the localised template of docs/locales.md as written there", () => {
  // README:start
  const damageReport = defineTemplate(records, {
    id: "damage_report",
    description: "An item of an order arrived damaged; choose the closest reason.",
    audience: "seller",
    effect: "informational",
    channel: "email",
    to: slot.ref("sellers", { show: "email", match: { id: "order.sellerId" } }),
    subject: "Damaged item in order {{order}}",
    body: "Hello,\n\nthe buyer reports that order {{order}} arrived damaged: {{reason}}.",
    slots: {
      order: slot.ref("orders", { show: "number" }),
      reason: slot.choice({ crushed: "the parcel was crushed", wet: "the parcel was wet" }),
    },
    limits: { perTicket: 1, perDay: 500 },
    locale: {
      default: "en",
      from: "to.locale", // the recipient's record; or a function of the records, in code
      dates: [de, es], // date-fns locales: month and day names
      texts: {
        de: {
          subject: "Beschädigter Artikel in Bestellung {{order}}",
          body: "Hallo,\n\nder Käufer meldet, dass Bestellung {{order}} beschädigt ankam: {{reason}}.",
          choices: { reason: { crushed: "das Paket war eingedrückt", wet: "das Paket war nass" } },
        },
        es: {
          subject: "Artículo dañado en el pedido {{order}}",
          body: "Hola:\n\nel comprador informa de que el pedido {{order}} llegó dañado: {{reason}}.",
          choices: { reason: { crushed: "el paquete llegó aplastado", wet: "el paquete llegó mojado" } },
        },
      },
    },
  });
  const catalog = createCatalog(records, [damageReport]);
  const decision = catalog.decide(
    { template: "damage_report", slots: { reason: "wet" } },
    {
      ticketId: "T-1",
      orders: [{ id: "o-1", number: "4471-2290", sellerId: "s-1" }],
      sellers: [{ id: "s-1", email: "shop@nordlicht.example", locale: "de-AT" }],
    },
  );
  // decision.message.subject: "Beschädigter Artikel in Bestellung 4471-2290", message.locale: "de"
  // decision.locale: { used: "de", requested: "de-AT", reason: "fallback" }
  // README:end
  expect(decision).toMatchObject({
    outcome: "send",
    message: { subject: "Beschädigter Artikel in Bestellung 4471-2290", locale: "de" },
    locale: { used: "de", requested: "de-AT", reason: "fallback" },
  });

  const source = readFileSync(new URL(import.meta.url), "utf8");
  const snippet = source
    .slice(source.indexOf("// README:start") + "// README:start".length, source.indexOf("  // README:end"))
    .replace(/^\n/, "")
    .replace(/^ {2}/gm, "");
  expect(readFileSync(new URL("../../../docs/locales.md", import.meta.url), "utf8")).toContain(snippet);
});
