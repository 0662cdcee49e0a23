import { applyEventLine, goDuration } from "./apply-progress.js";

describe("goDuration", () => {
  test.each([
    [0, "0s"],
    [9.9, "9s"],
    [60, "1m0s"],
    [75, "1m15s"],
    [3600, "1h0m0s"],
    [3725, "1h2m5s"],
  ])("%p seconds is %p", (s, text) => expect(goDuration(s)).toBe(text));
});

describe("applyEventLine", () => {
  test("create: no id until complete; the elapsed time as Go prints it", () => {
    const ids = new Map<string, string>();
    expect(applyEventLine({ type: "apply_start", address: "aws_x.y", action: "create" }, ids)).toBe("aws_x.y: Creating...");
    expect(applyEventLine({ type: "apply_progress", address: "aws_x.y", action: "create", elapsedSeconds: 70 }, ids)).toBe("aws_x.y: Still creating... [1m10s elapsed]");
    expect(applyEventLine({ type: "apply_complete", address: "aws_x.y", action: "create", idKey: "id", idValue: "i-1", elapsedSeconds: 3 }, ids)).toBe("aws_x.y: Creation complete after 3s [id=i-1]");
  });

  test("update and delete name the prior id, also in the Still lines; a destroy's completion has none", () => {
    const ids = new Map<string, string>();
    expect(applyEventLine({ type: "apply_start", address: "a.b", action: "update", idKey: "id", idValue: "x" }, ids)).toBe("a.b: Modifying... [id=x]");
    expect(applyEventLine({ type: "apply_progress", address: "a.b", action: "update", elapsedSeconds: 10 }, ids)).toBe("a.b: Still modifying... [id=x, 10s elapsed]");
    expect(applyEventLine({ type: "apply_start", address: "c.d", action: "delete", idKey: "id", idValue: "y", deposedKey: "00000001" }, ids)).toBe("c.d (deposed object 00000001): Destroying... [id=y]");
    expect(applyEventLine({ type: "apply_complete", address: "c.d", action: "delete", idKey: "id", idValue: "y", elapsedSeconds: 0, deposedKey: "00000001" }, ids)).toBe("c.d (deposed object 00000001): Destruction complete after 0s");
  });

  test("events Terraform prints no line for", () => {
    expect(applyEventLine({ type: "provider_configured", provider: "p", source: "s" }, new Map())).toBeUndefined();
  });
});
