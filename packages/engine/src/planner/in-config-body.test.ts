// inConfigBody follows a diagnostic's attribute path as Terraform's InConfigBody does (the
// same places were compared with terraform 1.11.4 for apply errors in
// packages/cli/test/apply-error-location.test.ts).
import { loadModuleFromFiles } from "@magma/config";
import { Path, type PathStep } from "@magma/cty";
import { formatRange } from "@magma/hcl";
import { inConfigBody } from "./in-config-body.js";

const MAIN = `resource "x_thing" "t" {
  name   = "n"
  labels = { team = "core", env = "dev" }
  list   = ["a", "b"]
  step {
    cmd = "first"
  }
  step {
    cmd = "second"
    arg {
      value = "v0"
    }
  }
  rule "https" {
    port = "443"
  }
}
`;
const { module } = loadModuleFromFiles("/work", new Map([["main.tf", MAIN]]));
const resource = module.managedResources.get("x_thing.t")!;
const place = (...steps: PathStep[]): string => formatRange(inConfigBody(resource, { severity: "error", summary: "s", attribute: Path.of(steps) }));
const attr = (name: string): PathStep => ({ kind: "attr", name });
const index = (i: number): PathStep => ({ kind: "index", index: i });
const key = (k: string): PathStep => ({ kind: "key", key: k });

describe("inConfigBody", () => {
  test("a top-level attribute: its expression; no path, or a path starting with an index: the block's opening brace", () => {
    expect(place(attr("name"))).toBe("main.tf:2,12-15");
    expect(formatRange(inConfigBody(resource, { severity: "error", summary: "s" }))).toBe("main.tf:1,24-25");
    expect(place(index(0))).toBe("main.tf:1,24-25");
  });

  test("an element: a map's value by its key, a list's element by its index; a missing one: the attribute's name", () => {
    expect(place(attr("labels"), key("team"))).toBe("main.tf:3,22-26");
    expect(place(attr("list"), index(1))).toBe("main.tf:4,18-21");
    expect(place(attr("list"), index(5))).toBe("main.tf:4,3-7");
    expect(place(attr("labels"), key("nope"))).toBe("main.tf:3,3-9");
  });

  test("into nested blocks: by index, nested again, by a map block's label", () => {
    expect(place(attr("step"), index(1), attr("cmd"))).toBe("main.tf:9,11-19");
    expect(place(attr("step"), index(1), attr("arg"), index(0), attr("value"))).toBe("main.tf:11,15-19");
    expect(place(attr("rule"), key("https"), attr("port"))).toBe("main.tf:15,12-17");
  });

  test("what the path does not lead to: the deepest body reached (its opening brace)", () => {
    // Two step blocks and no index: the resource's body.
    expect(place(attr("step"), attr("cmd"))).toBe("main.tf:1,24-25");
    // No third step block.
    expect(place(attr("step"), index(2), attr("cmd"))).toBe("main.tf:1,24-25");
    // An attribute the block does not set: the block's own brace.
    expect(place(attr("step"), index(0), attr("missing"))).toBe("main.tf:5,8-9");
  });
});
