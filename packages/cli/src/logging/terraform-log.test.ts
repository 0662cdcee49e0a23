import { createTerraformLog, hclogTime } from "./terraform-log.js";

/** A stream that keeps what is written. */
function sink(): { write(s: string): void; text: () => string } {
  let out = "";
  return { write: (s: string) => void (out += s), text: () => out };
}

const AT = new Date(Date.UTC(2026, 11, 7, 4, 27, 48, 847));

describe("createTerraformLog", () => {
  it("writes hclog text lines at and above TF_LOG's level, quoting values that need it and redacting secret-looking fields", () => {
    const s = sink();
    const log = createTerraformLog({ TF_LOG: "info", TZ: "UTC" }, s, () => AT);
    log.log("debug", "hidden");
    log.log("info", "Terraform version: 1.11.4");
    log.log("warn", "configured", { region: "us-east-1", access_key: "AKIAEXAMPLE", note: "two words" }, "provider");
    const lines = s.text().split("\n");
    expect(lines[0]).toBe(`${hclogTime(AT)} [INFO]  Terraform version: 1.11.4`);
    expect(lines[1]).toBe(`${hclogTime(AT)} [WARN]  provider: configured: region=us-east-1 access_key=[REDACTED] note="two words"`);
    expect(s.text()).not.toContain("hidden");
    expect(s.text()).not.toContain("AKIAEXAMPLE");
  });

  it("TF_LOG=JSON writes hclog JSON with sorted keys; TF_LOG_CORE alone leaves providers off; an invalid level warns and means TRACE", () => {
    const s = sink();
    const log = createTerraformLog({ TF_LOG: "json" }, s, () => AT);
    log.log("trace", "m", { b: 1, a: "x" });
    const doc = JSON.parse(s.text()) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(["@level", "@message", "@timestamp", "a", "b"]);
    expect(doc["@timestamp"]).toBe(hclogTime(AT, true));
    expect(createTerraformLog({ TF_LOG_CORE: "DEBUG" }, sink()).providerLogger).toBeUndefined();
    const w = sink();
    expect(createTerraformLog({ TF_LOG: "loud" }, w).coreLevel).toBe("trace");
    expect(w.text()).toBe('[WARN] Invalid log level: "LOUD". Defaulting to level: TRACE. Valid levels are: [TRACE DEBUG INFO WARN ERROR OFF]');
  });

  it("passes a provider's lines through under the binary's name once its launch names it", () => {
    const s = sink();
    const log = createTerraformLog({ TF_LOG_PROVIDER: "DEBUG" }, s, () => AT);
    const p = log.providerLogger!;
    p.log({ level: "debug", message: "early line", fields: {}, source: "stderr", pid: 7 });
    expect(s.text()).toBe("");
    p.log({ level: "debug", message: "plugin started: /x/terraform-provider-aws_v5.100.0_x5", fields: {}, source: "host", pid: 7 });
    p.log({ level: "info", message: "later", fields: { "@caller": "c.go:1" }, module: "sdk", timestamp: AT.toISOString(), source: "stderr", pid: 7 });
    const lines = s.text().split("\n");
    expect(lines[0]).toBe(`${hclogTime(AT)} [DEBUG] provider.terraform-provider-aws_v5.100.0_x5: early line`);
    expect(lines[2]).toBe(`${hclogTime(AT)} [INFO]  provider.terraform-provider-aws_v5.100.0_x5: later: @caller=c.go:1 @module=sdk timestamp=${hclogTime(AT)}`);
  });
});
