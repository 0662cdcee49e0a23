import { isFakeAwsError } from "./fake-aws-error.js";
import { FaultInjector, type FaultOptions } from "./fault-injector.js";

const error = { code: "ThrottlingException", message: "Rate exceeded", status: 400 };

function fired(f: FaultInjector, service: string, action: string, n: number): boolean[] {
  const out: boolean[] = [];
  for (let i = 0; i < n; i++) out.push(f.onCall(service, action)?.error !== undefined);
  return out;
}

describe("FaultInjector", () => {
  test("fails only the nth matching call by default", () => {
    const f = new FaultInjector();
    const h = f.inject({ action: "GetParameter", nth: 2, error });
    expect(fired(f, "ssm", "DescribeParameters", 3)).toEqual([false, false, false]);
    expect(fired(f, "ssm", "GetParameter", 4)).toEqual([false, true, false, false]);
    expect(h.seen).toBe(4);
    expect(h.hits).toBe(1);
    expect(h.exhausted).toBe(true);
  });

  test("times fails consecutive calls; always never stops", () => {
    const f = new FaultInjector();
    f.inject({ action: "A", nth: 2, times: 2, error });
    expect(fired(f, "ec2", "A", 5)).toEqual([false, true, true, false, false]);
    const g = new FaultInjector();
    const h = g.inject({ action: "A", times: "always", error });
    expect(fired(g, "ec2", "A", 6)).toEqual([true, true, true, true, true, true]);
    expect(h.exhausted).toBe(false);
    h.remove();
    expect(fired(g, "ec2", "A", 1)).toEqual([false]);
    expect(h.exhausted).toBe(true);
  });

  test("a service restriction only counts that service", () => {
    const f = new FaultInjector();
    f.inject({ action: "ListTagsForResource", service: "logs", error });
    expect(fired(f, "ssm", "ListTagsForResource", 2)).toEqual([false, false]);
    expect(fired(f, "logs", "ListTagsForResource", 2)).toEqual([true, false]);
  });

  test("fills in the error defaults and adds delays", () => {
    const f = new FaultInjector();
    f.inject({ action: "A", error: { code: "InternalError" } });
    f.inject({ action: "A", delayMs: 30 });
    f.inject({ action: "A", delayMs: 20, error: { code: "Second", status: 503 } });
    const effect = f.onCall("ec2", "A");
    expect(effect).toEqual({ faultIds: [1, 2, 3], delayMs: 50, dropConnection: false, error: { code: "InternalError", message: "Injected fault: InternalError", status: 400 } });
    expect(f.onCall("ec2", "A")).toBeUndefined();
  });

  test("clear removes every fault", () => {
    const f = new FaultInjector();
    f.inject({ action: "A", times: "always", error });
    f.clear();
    expect(f.onCall("ec2", "A")).toBeUndefined();
  });

  test.each<[string, FaultOptions]>([
    ["action must be a non-empty", { action: "", error }],
    ["nth must be an integer >= 1, got 0", { action: "A", nth: 0, error }],
    ["nth must be an integer >= 1, got 1.5", { action: "A", nth: 1.5, error }],
    ["times must be an integer >= 1", { action: "A", times: 0, error }],
    ["delayMs must be a finite number >= 0", { action: "A", delayMs: -1 }],
    ["give an error, a delayMs, dropConnection, or a combination", { action: "A" }],
    ["error.code must be a non-empty string", { action: "A", error: { code: "" } }],
    ["error.status must be an HTTP error status 400-599, got 200", { action: "A", error: { code: "X", status: 200 } }],
  ])("rejects a bad fault: %s", (fragment, options) => {
    let caught: unknown;
    try {
      new FaultInjector().inject(options);
    } catch (e) {
      caught = e;
    }
    expect(isFakeAwsError(caught)).toBe(true);
    expect((caught as { code: string }).code).toBe("invalid_fault");
    expect((caught as Error).message).toContain(fragment);
  });
});
