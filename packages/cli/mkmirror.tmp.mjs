import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry } from "@magma/test-support";
import { writeFileSync } from "node:fs";
const mirror = "/tmp/tt/mirror";
for (const [type, file] of Object.entries({ random: "random-provider.mjs", blocks: "blocks-provider.mjs", failing: "failing-provider.mjs" })) {
  bundleLauncherEntry(writeProviderLauncher({ mirrorDir: mirror, hostname: "registry.terraform.io", namespace: "magma", type, version: "1.0.0", module: new URL(`./test/testdata/${file}`, import.meta.url).pathname, exportName: "createProvider" }));
}
writeFileSync("/tmp/tt/cli.tfrc", `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/magma/*"]\n  }\n}\n`);
