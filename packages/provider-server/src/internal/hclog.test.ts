import { createHclogLogger, hclogTimestamp, parseLogLevel } from "./hclog.js";

describe("hclog lines", () => {
  test("timestamp layout 2006-01-02T15:04:05.000000Z07:00 in UTC", () => {
    expect(hclogTimestamp(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 67)))).toBe("2026-01-02T03:04:05.067000Z");
  });

  test.each([
    ["TRACE", "trace"],
    ["json", "trace"],
    ["Info", "info"],
    ["off", "off"],
    ["loud", undefined],
    [undefined, undefined],
  ])("parseLogLevel(%j) = %j", (text, level) => {
    expect(parseLogLevel(text)).toBe(level);
  });

  test("one JSON object per line, filtered by level, reserved keys not overwritten, bigints as text", () => {
    const lines: string[] = [];
    const log = createHclogLogger({ write: (t) => lines.push(t) }, "info", "memory");
    log.log("debug", "hidden");
    log.log("warn", "shown", { "@level": "error", n: 12n, tf_rpc: "PlanResourceChange" });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith("\n")).toBe(true);
    const j = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(j).toMatchObject({ "@level": "warn", "@message": "shown", "@module": "memory", n: "12", tf_rpc: "PlanResourceChange" });
    expect(log.enabled("debug")).toBe(false);
    expect(log.enabled("error")).toBe(true);
  });
});
