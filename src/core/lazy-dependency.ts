import { createRequire } from "node:module";

// Resolved from this module's own location, as an `import` in it would be.
const requireHere = createRequire(import.meta.url);

/**
 * A dependency loaded the first time it is used rather than when formletter is imported: `get()`
 * requires it then and hands back the same module after. For packages only some catalogs need
 * (phone numbers, HTML e-mail, tracing), which would otherwise cost every process start their load time.
 * `require` because the paths that use them are synchronous (`decide()`, definitions); each package
 * named here ships a CommonJS build, so both of formletter's builds load it.
 */
export function lazyDependency<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireHere(name) as T;
    return loaded;
  };
}
