import { Path, type PathStep } from "@magma/cty";
import { StateError } from "./state-error.js";

/**
 * Decodes `sensitive_attributes` JSON (a list of paths of `{"type":"get_attr","value":"x"}`
 * and `{"type":"index","value":{"value":0,"type":"number"}}` steps) into cty paths: an index
 * by number is a list/tuple index, an index by string a map key.
 *
 * @throws StateError `corrupt` for a step cty paths cannot express.
 */
export function decodeSensitivePaths(json: string): Path[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new StateError("corrupt", "sensitive_attributes is not valid JSON", { cause: e });
  }
  if (!Array.isArray(raw)) throw new StateError("corrupt", "sensitive_attributes must be a list of paths");
  return raw.map((p: unknown, i) => {
    if (!Array.isArray(p)) throw new StateError("corrupt", `sensitive_attributes[${i}] must be a list of steps`);
    return Path.of(
      p.map((s: unknown, j): PathStep => {
        const step = s as { type?: unknown; value?: unknown };
        if (step.type === "get_attr" && typeof step.value === "string") return { kind: "attr", name: step.value };
        if (step.type === "index" && typeof step.value === "object" && step.value !== null) {
          const { value, type } = step.value as { value?: unknown; type?: unknown };
          if (type === "number" && typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return { kind: "index", index: value };
          if (type === "string" && typeof value === "string") return { kind: "key", key: value };
        }
        throw new StateError("corrupt", `sensitive_attributes[${i}][${j}] is not an attribute, index or key step: ${JSON.stringify(s)}`);
      }),
    );
  });
}

/** Encodes cty paths as `sensitive_attributes` JSON, as Terraform marshals them. */
export function encodeSensitivePaths(paths: readonly Path[]): string {
  const steps = (p: Path): string =>
    p.steps
      .map((s) =>
        s.kind === "attr"
          ? `{"type":"get_attr","value":${JSON.stringify(s.name)}}`
          : s.kind === "index"
            ? `{"type":"index","value":{"value":${s.index},"type":"number"}}`
            : `{"type":"index","value":{"value":${JSON.stringify(s.key)},"type":"string"}}`,
      )
      .join(",");
  return `[${paths.map((p) => `[${steps(p)}]`).join(",")}]`;
}
