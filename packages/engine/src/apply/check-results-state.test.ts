import { formatStateFile, newStateFile, readStateFile } from "@magma/state";
import type { PlannedCheck } from "../plan/planned-check.js";
import { ApplyState } from "./apply-state.js";
import { checkResultsState } from "./check-results-state.js";

const checks: PlannedCheck[] = [
  { kind: "var", address: "var.n", name: "n", status: "pass", instances: [{ address: "var.n", status: "pass", problems: [] }] },
  {
    kind: "check",
    address: "check.c",
    name: "c",
    status: "fail",
    instances: [{ address: "check.c", status: "fail", problems: ["b", "a"] }],
  },
  {
    kind: "output_value",
    address: "module.m.output.o",
    module: "module.m",
    name: "o",
    status: "pass",
    instances: [
      { address: 'module.m["q"].output.o', module: 'module.m["q"]', status: "pass", problems: [] },
      { address: 'module.m["p"].output.o', module: 'module.m["p"]', status: "pass", problems: [] },
    ],
  },
  { kind: "resource", address: "random_string.z", mode: "managed", type: "random_string", name: "z", status: "unknown", instances: [] },
];

describe("checkResultsState", () => {
  test("kinds as state v4 names them, sorted by address, objects too, messages kept in order", () => {
    expect(checkResultsState(checks)).toEqual([
      { objectKind: "check", configAddr: "check.c", status: "fail", objects: [{ objectAddr: "check.c", status: "fail", failureMessages: ["b", "a"] }] },
      {
        objectKind: "output",
        configAddr: "module.m.output.o",
        status: "pass",
        objects: [
          { objectAddr: 'module.m["p"].output.o', status: "pass", failureMessages: [] },
          { objectAddr: 'module.m["q"].output.o', status: "pass", failureMessages: [] },
        ],
      },
      { objectKind: "resource", configAddr: "random_string.z", status: "unknown", objects: [] },
      { objectKind: "var", configAddr: "var.n", status: "pass", objects: [{ objectAddr: "var.n", status: "pass", failureMessages: [] }] },
    ]);
    expect(checkResultsState([])).toBeUndefined();
  });

  test("written through ApplyState: a change is persisted, the same results again are not", async () => {
    const written: string[] = [];
    const store = new ApplyState(newStateFile(), async (s) => void written.push(formatStateFile(s)));
    await store.commit((w) => w.setCheckResults(checkResultsState(checks)));
    await store.commit((w) => w.setCheckResults(checkResultsState(checks)));
    expect(written).toHaveLength(1);
    const back = readStateFile(written[0]!)!;
    expect(back.checkResults?.map((c) => `${c.objectKind} ${c.configAddr} ${c.status} ${c.objects.length}`)).toEqual(["check check.c fail 1", "output module.m.output.o pass 2", "resource random_string.z unknown 0", "var var.n pass 1"]);
    await store.commit((w) => w.setCheckResults(undefined));
    expect(written).toHaveLength(2);
    expect(written[1]).toContain('"check_results": null');
  });
});
