import { DefinitionError } from "../errors.js";

/** The definition errors of localised templates: each names the template, the locale and the slot. */

/** Throws a definition error naming the template, the locale (when one is at fault) and the slot. */
export function localeError(id: string, tag: string | undefined, message: string, slot?: string): never {
  const where = [`template "${id}"`, tag && `locale "${tag}"`, slot && `slot "${slot}"`]
    .filter(Boolean)
    .join(", ");
  throw new DefinitionError("template_invalid", `${where}: ${message}`, { template: id, slot });
}

/** Runs the template checks for one locale, adding the locale to the errors they throw. */
export function inLocale<T>(id: string, tag: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof DefinitionError) || error.template !== id) throw error;
    const prefix = `template "${id}"`;
    const message = error.message.startsWith(prefix)
      ? `${prefix}, locale "${tag}"${error.message.slice(prefix.length)}`
      : error.message;
    throw new DefinitionError(error.code, message, { template: id, slot: error.slot });
  }
}
