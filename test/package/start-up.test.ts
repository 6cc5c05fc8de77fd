/**
 * What starting formletter loads, on the packed package installed as a user would: the root entry and
 * the command line's `--version` and `--help` load only the files test/package/start-up-files.ts lists,
 * and the dependencies left out of it still load, in both builds, once a catalog uses them.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { root, run, usePackedPackage } from "./scratch-project.js";
import { commandLine, rootImport, rootRequire } from "./start-up-files.js";

const packed = usePackedPackage();

beforeAll(() => {
  const { folder } = packed;
  copyFileSync(join(root, "bench/loaded-files.mjs"), join(folder, "loaded-files.mjs"));
  writeFileSync(join(folder, "dated.mjs"), datedCatalog("import", "formletter"));
  writeFileSync(join(folder, "dated.cjs"), datedCatalog("require", "formletter"));
});

/** A catalog whose one template shows a date and a phone number in text and HTML, decided once. */
function datedCatalog(system: "import" | "require", from: string): string {
  const names = "createCatalog, defineRecords, defineTemplate, format";
  const imports =
    system === "import"
      ? `import { z } from "zod";\nimport { ${names} } from "${from}";`
      : `const { z } = require("zod");\nconst { ${names} } = require("${from}");`;
  return `${imports}
const records = defineRecords({
  orders: z.object({ id: z.string(), placed: z.string(), email: z.email(), phone: z.string() }),
});
const slot = records.slot;
const catalog = createCatalog(records, [
  defineTemplate(records, {
    id: "placed", description: "Tell the customer when the order was placed", audience: "customer",
    effect: "informational", channel: "email", to: slot.ref("orders", { show: "email" }), subject: "Your order",
    body: "Placed on {{placed}}; we will call {{phone}}.",
    html: "<p>Placed on {{placed}}; we will call {{phone}}.</p>",
    slots: {
      placed: slot.ref("orders", { show: "placed", as: format.date("d MMM yyyy", { timeZone: "UTC" }) }),
      phone: slot.ref("orders", { show: "phone", as: format.phone({ defaultCountry: "DE" }) }),
    },
    limits: { perTicket: 1, perDay: 10 },
  }),
]);
const ticket = { ticketId: "T-1", orders: [{ id: "o1", placed: "2026-03-02", email: "a@example.com", phone: "030 1234567" }] };
const decision = catalog.decide({ template: "placed", slots: {} }, ticket);
console.log(JSON.stringify(decision.outcome === "send" ? [decision.message.text, decision.message.html] : decision));
`;
}

/**
 * The files a run of the probe loaded, as paths inside the project's node_modules, and the lines it
 * printed before its list. `stream` is where the probe writes the list: stderr when it runs a program.
 */
async function loaded(args: readonly string[], stream: "stdout" | "stderr" = "stdout") {
  const result = await run(process.execPath, ["loaded-files.mjs", ...args], { cwd: packed.folder });
  const lines = result[stream].trim().split("\n");
  const files = (JSON.parse(lines.at(-1) ?? "[]") as string[]).map((file) =>
    relative(join(packed.project, "node_modules"), file).split(sep).join("/"),
  );
  return { files, printed: result.stdout };
}

const own = (files: readonly string[]) => files.filter((file) => file.startsWith("formletter/dist/"));
const others = (files: readonly string[]) => files.filter((file) => !file.startsWith("formletter/dist/"));

describe("starting formletter loads only what every start needs", () => {
  it('import("formletter") loads the listed files, and of formletter its root chunks only', async () => {
    const { files } = await loaded(["formletter"]);
    expect(others(files)).toEqual([...rootImport].sort());
    // No subpath's or the command line's code: those sit in folders of their own under dist/.
    for (const file of own(files)) expect(file).toMatch(/^formletter\/dist\/(index|chunk-[A-Z0-9]+)\.js$/);
    expect(own(files)).toContain("formletter/dist/index.js");
  });

  it('require("formletter") loads the listed files and the CommonJS build', async () => {
    const { files } = await loaded(["--require", "formletter"]);
    expect(others(files)).toEqual([...rootRequire].sort());
    expect(own(files)).toEqual(["formletter/dist/index.cjs"]);
  });

  it.each([["--version"], ["--help"]])("formletter %s loads the parser and no command", async (option) => {
    const cli = join(packed.project, "node_modules/formletter/dist/cli/index.js");
    const { files, printed } = await loaded(["--run", cli, option], "stderr");
    expect(printed).toMatch(option === "--version" ? /^\d+\.\d+\.\d+/ : /Commands:[\s\S]*replay/);
    expect(others(files)).toEqual([...commandLine].sort());
    for (const file of own(files)) expect(file).toMatch(/^formletter\/dist\/cli\/[\w-]+\.js$/);
  });
});

describe("a dependency left out of the start loads when a catalog first uses it", () => {
  it.each([
    ["an ES module", "./dated.mjs"],
    ["CommonJS", "--require"],
  ])("%s: a date, a phone number and an HTML part", async (_, first) => {
    const args = first === "--require" ? ["--require", "./dated.cjs"] : [first];
    const { files, printed } = await loaded(args);
    const [text, html] = JSON.parse(printed.trim().split("\n")[0] ?? "") as [string, string];
    expect(text).toBe("Placed on 2 Mar 2026; we will call +49 30 1234567.");
    expect(html).toContain("<p>Placed on 2 Mar 2026; we will call +49 30 1234567.</p>");
    const packages = new Set(
      files.map((file) =>
        file
          .split("/")
          .slice(0, file.startsWith("@") ? 2 : 1)
          .join("/"),
      ),
    );
    for (const name of ["date-fns", "@date-fns/tz", "libphonenumber-js", "parse5"])
      expect(packages).toContain(name);
    // Each from its own file, never the package's root module that re-exports all of it.
    expect(files).not.toContain("date-fns/index.js");
    expect(files).not.toContain("date-fns/index.cjs");
  });
});
