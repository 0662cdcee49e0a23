import { decideColour, paint, paintf } from "./colour.js";

const tty = { isTTY: true, write: () => true };
const pipe = { write: () => true };

describe("decideColour", () => {
  test("a terminal is coloured, a pipe is not, per stream", () => {
    expect(decideColour({ stdout: tty, stderr: pipe, env: {} }, [])).toEqual({ stdout: true, stderr: false });
    expect(decideColour({ stdout: pipe, stderr: tty, env: {} }, [])).toEqual({ stdout: false, stderr: true });
  });

  test("FORCE_COLOR (non-empty, not 0) colours a pipe", () => {
    expect(decideColour({ stdout: pipe, stderr: pipe, env: { FORCE_COLOR: "1" } }, [])).toEqual({ stdout: true, stderr: true });
    expect(decideColour({ stdout: pipe, stderr: pipe, env: { FORCE_COLOR: "true" } }, [])).toEqual({ stdout: true, stderr: true });
    expect(decideColour({ stdout: pipe, stderr: pipe, env: { FORCE_COLOR: "0" } }, [])).toEqual({ stdout: false, stderr: false });
    expect(decideColour({ stdout: pipe, stderr: tty, env: { FORCE_COLOR: "" } }, [])).toEqual({ stdout: false, stderr: true });
  });

  test("-no-color and NO_COLOR (non-empty) turn colour off, also on a terminal and with FORCE_COLOR", () => {
    expect(decideColour({ stdout: tty, stderr: tty, env: {} }, ["plan", "--no-color"])).toEqual({ stdout: false, stderr: false });
    expect(decideColour({ stdout: tty, stderr: tty, env: { NO_COLOR: "1", FORCE_COLOR: "1" } }, [])).toEqual({ stdout: false, stderr: false });
    expect(decideColour({ stdout: tty, stderr: tty, env: { NO_COLOR: "" } }, [])).toEqual({ stdout: true, stderr: true });
  });
});

describe("paint and paintf", () => {
  test("paint colours markup as terraform's Colorize; paintf fills %s after colouring, so outside text is never markup", () => {
    expect(paint(true, "[reset][bold]Plan:")).toBe("\x1b[0m\x1b[1mPlan:\x1b[0m");
    expect(paint(false, "[reset][bold]Plan:")).toBe("Plan:");
    expect(paintf(true, "[reset][bold]%s: Refreshing state...%s", "x.y[0]", " [id=[red]]")).toBe("\x1b[0m\x1b[1mx.y[0]: Refreshing state... [id=[red]]\x1b[0m");
    expect(paintf(false, "[reset][bold]%s: Creating...[reset]", "[bold]")).toBe("[bold]: Creating...");
  });
});
