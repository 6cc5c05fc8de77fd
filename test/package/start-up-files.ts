/**
 * The files of other packages that starting each entry point may load, by path inside node_modules: the
 * committed list test/package/start-up.test.ts compares the packed package against. An entry that starts
 * loading one more package, or more files of one (a root module of date-fns re-exporting all of it),
 * fails there; if the new load is needed at start-up, add it here with its reason. Dependencies that
 * only some catalogs or commands use (date-fns, libphonenumber-js, parse5, the OpenTelemetry API, the
 * relay's server, the commands' modules) load when first used, and are not listed.
 */

/** `import("formletter")`: Mustache, which parses a template's text when the template is defined. */
export const rootImport = ["mustache/mustache.mjs"];

/** `require("formletter")`: the same, from the CommonJS build. */
export const rootRequire = ["mustache/mustache.js"];

/** `formletter --version` and `formletter --help`: the command-line parser, and no command's module. */
export const commandLine = [
  "commander/esm.mjs",
  "commander/index.js",
  "commander/lib/argument.js",
  "commander/lib/command.js",
  "commander/lib/error.js",
  "commander/lib/help.js",
  "commander/lib/option.js",
  "commander/lib/suggestSimilar.js",
  // The version it prints.
  "formletter/package.json",
];
