/**
 * A JSON Schema node as formletter generates it: only keywords every provider's strict mode accepts
 * (`type`, `description`, `enum`, `properties`, `required`, `additionalProperties`, and `anyOf` below
 * the root). Type aliases, not interfaces, so the objects are assignable to the SDKs' index-signature
 * types (`{ [key: string]: unknown }`); arrays are mutable for the same reason.
 */
export type JsonSchema = {
  type?: "string" | "object";
  description?: string;
  enum?: string[];
  /** A regular expression the whole string must match (`^…$`); only simple ones (classes, `+`, groups). */
  pattern?: string;
  properties?: { [name: string]: JsonSchema };
  required?: string[];
  additionalProperties?: false;
  anyOf?: JsonSchema[];
};

/** An object schema: every property required, nothing else allowed (the shape strict modes demand). */
export type ObjectSchema = {
  type: "object";
  description?: string;
  properties: { [name: string]: JsonSchema };
  required: string[];
  additionalProperties: false;
};

/** One tool before it is shaped for a provider: a name, a description and its parameters. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: ObjectSchema;
}

/** An object schema whose properties are all required, in the order given. */
export function objectSchema(properties: { [name: string]: JsonSchema }, description?: string): ObjectSchema {
  return {
    type: "object",
    ...(description === undefined ? {} : { description }),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** A string that must be one of `values`; an empty description is left out (it would only cost tokens). */
export function enumSchema(values: readonly string[], description: string): JsonSchema {
  return { type: "string", ...(description === "" ? {} : { description }), enum: [...values] };
}
