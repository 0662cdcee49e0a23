import { crashReport } from "./crash-report.js";

describe("crashReport", () => {
  const error = new TypeError("holding s3cr3t");

  test("the banner and the error's kind, never its message or stack unless a log is asked for", () => {
    for (const env of [{}, { TF_LOG: "" }, { MAGMA_LOG: "off" }]) {
      const text = crashReport(error, env);
      expect(text).toContain("MAGMA CRASH");
      expect(text).toContain("(TypeError)");
      expect(text).toContain("MAGMA_LOG=debug");
      expect(text).not.toContain("s3cr3t");
      expect(text).not.toMatch(/^\s+at /m);
    }
  });

  test("with MAGMA_LOG or TF_LOG: the error and its stack", () => {
    for (const env of [{ MAGMA_LOG: "debug" }, { TF_LOG: "trace" }]) {
      const text = crashReport(error, env);
      expect(text).toContain("crash: TypeError: holding s3cr3t");
      expect(text).toMatch(/^\s+at /m);
    }
    expect(crashReport("thrown string", { MAGMA_LOG: "1" })).toContain("(string)");
  });
});
