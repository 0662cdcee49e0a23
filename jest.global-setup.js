// Jest global setup (runs in the main process before the workers start, so that every process a
// test spawns inherits it): a CLI configuration file variable (TF_CLI_CONFIG_FILE, or
// TERRAFORM_CONFIG) that names a missing file is pointed at an empty file instead. Both
// terraform and magma warn on stderr at start-up about a CLI configuration file they were told
// to use but cannot open; a machine-wide variable naming a missing file would put that warning
// into every run. An empty file configures exactly what the missing one did (nothing, and the
// variable still keeps ~/.terraform.d out). A test that sets the variable itself is unaffected.
import { existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function globalSetup() {
  const named = process.env.TF_CLI_CONFIG_FILE || process.env.TERRAFORM_CONFIG || "";
  if (named === "" || existsSync(named)) return;
  const empty = join(tmpdir(), "magma-test-empty.tfrc");
  if (!existsSync(empty)) writeFileSync(empty, "");
  process.env.TF_CLI_CONFIG_FILE = empty;
}
