#!/usr/bin/env node
// `pnpm demo` from a checkout: runs `magma demo` from the built CLI, adding
// `--plugin-dir /opt/tf-plugins` only when that filesystem mirror exists (it is where the
// hashicorp/aws binary lives on the magma dev image; elsewhere the usual directories and
// MAGMA_PLUGIN_DIRS are searched). Extra arguments are passed on.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "magma.js");
const mirror = "/opt/tf-plugins";
const args = ["demo", ...(existsSync(mirror) ? ["--plugin-dir", mirror] : []), ...process.argv.slice(2)];
const r = spawnSync(process.execPath, [bin, ...args], { stdio: "inherit" });
process.exit(r.status ?? 1);
