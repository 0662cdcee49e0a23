import { Path, type PathStep } from "@magma/cty";
import { invalidResponseError } from "@magma/provider-api";
import type { ProtoAttributePath, ProtoPathStep } from "./proto-shapes.js";

/**
 * Reads a wire `AttributePath` as a cty {@link Path}.
 *
 * @throws ProviderError `invalid_response` for a step with no selector or a negative or
 * oversized index.
 * @internal
 */
export function pathFromProto(p: ProtoAttributePath | undefined, operation: string): Path | undefined {
  if (p === undefined || p.steps.length === 0) return undefined;
  const steps: PathStep[] = p.steps.map((s, i) => {
    const sel = s.selector;
    switch (sel.case) {
      case "attributeName":
        return { kind: "attr", name: sel.value };
      case "elementKeyString":
        return { kind: "key", key: sel.value };
      case "elementKeyInt": {
        if (sel.value < 0n || sel.value > BigInt(Number.MAX_SAFE_INTEGER)) {
          throw invalidResponseError(`attribute path step ${i} has an out-of-range index ${sel.value}`, { operation });
        }
        return { kind: "index", index: Number(sel.value) };
      }
      default:
        throw invalidResponseError(`attribute path step ${i} has no selector`, { operation });
    }
  });
  return Path.of(steps);
}

/**
 * Writes a cty {@link Path} as a wire `AttributePath`.
 *
 * @internal
 */
export function pathToProto(path: Path): ProtoAttributePath {
  return {
    steps: path.steps.map((s): ProtoPathStep => {
      switch (s.kind) {
        case "attr":
          return { selector: { case: "attributeName", value: s.name } };
        case "key":
          return { selector: { case: "elementKeyString", value: s.key } };
        case "index":
          return { selector: { case: "elementKeyInt", value: BigInt(s.index) } };
      }
    }),
  };
}
