/**
 * The package's version, as spans name their instrumentation scope. Written here rather than read from
 * package.json at run time, whose place differs between the sources and each built entry; a test keeps
 * the two equal.
 */
export const formletterVersion = "0.1.0";
