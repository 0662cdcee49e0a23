import { utf8Bytes } from "./utf8.js";
import { Path, listType, mapType, nullVal, objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { createSchemaEntry, errorDiag } from "@magma/provider-api";
import { stableHash } from "./stable-hash.js";
import { changedPaths, type TestbedContext, type TestbedResource } from "./testbed-resource.js";
import { canonical, withAttrs } from "./value-kit.js";

const entry = createSchemaEntry({
  description: "A small value to chain resources with: output is known at plan, token only after apply.",
  attributes: {
    id: { type: stringType, computed: true },
    input: { type: stringType, optional: true },
    inputs: { type: listType(stringType), optional: true },
    output: { type: stringType, computed: true, description: "A hash of input and inputs, known at plan when they are." },
    token: { type: stringType, computed: true, description: "Unknown until apply; kept while input and inputs do not change." },
    key: { type: stringType, computed: true, sensitive: true, description: "A hash of the token." },
    keep: { type: stringType, optional: true, computed: true, description: "Default: the prior value, else \"kept\"." },
    triggers: { type: mapType(stringType), optional: true, description: "Changing it replaces the object." },
    secret_wo: { type: stringType, optional: true, writeOnly: true, description: "Write-only: never stored." },
  },
});

const REPLACE_PATHS: readonly Path[] = [Path.root.attr("triggers")];

function sourceText(v: Value): string | undefined {
  return canonical(objectVal({ input: v.getAttr("input"), inputs: v.getAttr("inputs") }));
}

function output(v: Value, ctx: TestbedContext): Value {
  const text = sourceText(v);
  return text === undefined ? unknownVal(stringType) : stringVal(`out-${stableHash(`${ctx.prefix}|${text}`)}`);
}

function settle(planned: Value, ctx: TestbedContext): Value {
  const text = sourceText(planned) ?? "";
  const token = planned.getAttr("token").isKnown() ? planned.getAttr("token") : stringVal(`tok-${stableHash(`${ctx.prefix}|token|${text}`)}`);
  return withAttrs(planned, {
    id: planned.getAttr("id").isKnown() ? planned.getAttr("id") : stringVal(`${ctx.prefix}val-${stableHash(`id|${text}`).slice(0, 10)}`),
    output: output(planned, ctx),
    token,
    key: stringVal(`key-${stableHash(token.asString())}`),
    secret_wo: nullVal(stringType),
  });
}

/** testbed_value: chaining values, a write-only attribute, a replace-forcing map; importable by input. @internal */
export const testbedValue: TestbedResource = {
  typeName: "testbed_value",
  entry,
  plan(prior, proposed, _config, ctx) {
    let planned = withAttrs(proposed, { secret_wo: nullVal(stringType) });
    if (planned.getAttr("keep").isNull()) planned = withAttrs(planned, { keep: stringVal("kept") });
    const requiresReplace = changedPaths(prior, planned, REPLACE_PATHS);
    const fresh = prior.isNull() || requiresReplace.length > 0;
    const sameSource = !fresh && sourceText(planned) !== undefined && sourceText(planned) === sourceText(prior);
    planned = withAttrs(planned, {
      id: fresh ? unknownVal(stringType) : prior.getAttr("id"),
      output: output(planned, ctx),
      token: sameSource ? prior.getAttr("token") : unknownVal(stringType),
      key: sameSource ? prior.getAttr("key") : unknownVal(stringType),
    });
    return { plannedState: planned, requiresReplace, plannedPrivate: utf8Bytes(`{"planned":true}`) };
  },
  apply: (_prior, planned, ctx) => ({ newState: settle(planned, ctx) }),
  importState(id, ctx) {
    if (id === "") return { diagnostics: [errorDiag("Invalid import id", "testbed_value is imported by its input, which must not be empty.")] };
    const empty: Record<string, Value> = {};
    for (const [k, t] of Object.entries(entry.type.attributes)) empty[k] = nullVal(t);
    const planned = objectVal({ ...empty, input: stringVal(id), keep: stringVal("kept"), id: unknownVal(stringType), token: unknownVal(stringType) });
    return { resources: [{ state: settle(planned, ctx), private: utf8Bytes(`{"imported":true}`) }] };
  },
};
