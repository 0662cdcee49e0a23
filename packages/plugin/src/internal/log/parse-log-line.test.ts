import { isPanicStart, parseLogLine } from "./parse-log-line.js";

describe("parseLogLine", () => {
  test("hclog JSON: level, message, timestamp, module; other keys become fields", () => {
    const line =
      '{"@caller":"github.com/x/y.go:12","@level":"trace","@message":"Served request","@module":"sdk.proto","@timestamp":"2026-01-02T03:04:05.123456Z","tf_rpc":"GetSchema","n":3}';
    expect(parseLogLine(line, false)).toEqual({
      level: "trace",
      message: "Served request",
      timestamp: "2026-01-02T03:04:05.123456Z",
      module: "sdk.proto",
      fields: { "@caller": "github.com/x/y.go:12", tf_rpc: "GetSchema", n: 3 },
      startsPanic: false,
      json: true,
    });
  });

  test.each([
    ["debug", "debug"],
    ["INFO", "info"],
    ["warn", "warn"],
    ["error", "error"],
    ["weird", "debug"],
  ])("JSON @level %s -> %s", (level, expected) => {
    expect(parseLogLine(`{"@level":"${level}","@message":"m"}`, false).level).toBe(expected);
  });

  test.each([
    ["[TRACE] provider: x", "trace"],
    ["[DEBUG] x", "debug"],
    ["[INFO] x", "info"],
    ["[WARN] x", "warn"],
    ["[ERROR] x", "error"],
    ["2026/01/02 03:04:05 [ERROR] go log prefix", "error"],
    ["2026/01/02 03:04:05.123456 [WARN] with micros", "warn"],
    ["Starting github.com/hashicorp/terraform-provider-aws@5.100.0 (go1.23.10)...", "debug"],
    ["x [ERROR] not at the start", "debug"],
    ["{not json", "debug"],
    ['{"no":"hclog keys"}', "debug"],
    ["[1,2]", "debug"],
  ])("plain line %j -> %s, whole line as message", (line, level) => {
    const parsed = parseLogLine(line, false);
    expect(parsed).toMatchObject({ level, message: line, json: false, startsPanic: false, fields: {} });
  });

  test("panic lines start panic mode and are errors; later plain lines are errors", () => {
    expect(parseLogLine("panic: boom", false)).toMatchObject({ level: "error", startsPanic: true });
    expect(parseLogLine("fatal error: concurrent map writes", false)).toMatchObject({ level: "error", startsPanic: true });
    expect(parseLogLine("goroutine 1 [running]:", true)).toMatchObject({ level: "error", startsPanic: false });
    expect(parseLogLine('{"@level":"info","@message":"still json"}', true).level).toBe("info");
    expect(isPanicStart("panic:no space")).toBe(false);
    expect(isPanicStart(" panic: indented")).toBe(false);
  });

  test("a truncated JSON line keeps its leading hclog keys", () => {
    const line = `{"@level":"warn","@message":"big \\"body\\"","@module":"aws","@timestamp":"t","body":"${"x".repeat(100)}`;
    expect(parseLogLine(line, false, true)).toMatchObject({
      level: "warn",
      message: 'big "body"',
      module: "aws",
      timestamp: "t",
      json: true,
    });
  });
});
