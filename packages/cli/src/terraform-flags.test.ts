import { Command } from "commander";
import { normalizeTerraformFlags } from "./terraform-flags.js";

const program = (): Command => {
  const p = new Command("magma").option("--chdir <dir>");
  p.command("state").command("rm").option("--lock [bool]").option("--lock-timeout <d>").option("--backup <path>").option("--dry-run");
  p.command("plan").option("-o, --output <format>").option("--config <json>").option("--json");
  return p;
};

describe("normalizeTerraformFlags", () => {
  test("terraform's single-dash long flags become double-dash; Go-style booleans never take the next argument", () => {
    expect(normalizeTerraformFlags(["-chdir=d", "state", "rm", "-lock", "-lock-timeout=10s", "-backup", "-", "-dry-run", "a.b"], program())).toEqual([
      "--chdir=d",
      "state",
      "rm",
      "--lock=true",
      "--lock-timeout=10s",
      "--backup",
      "-",
      "--dry-run",
      "a.b",
    ]);
    expect(normalizeTerraformFlags(["state", "rm", "--lock=false", "x"], program())).toEqual(["state", "rm", "--lock=false", "x"]);
  });

  test("short options, stdin, unknown names and everything after -- stay as they are", () => {
    expect(normalizeTerraformFlags(["plan", "-o", "json", "--config", "-", "-nope", "-json", "--", "-json"], program())).toEqual(["plan", "-o", "json", "--config", "-", "-nope", "--json", "--", "-json"]);
    expect(normalizeTerraformFlags(["-help"], program())).toEqual(["--help"]);
  });
});
