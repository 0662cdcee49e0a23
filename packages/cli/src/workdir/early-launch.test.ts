import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { earlyLaunchTargets, lockedProviders, startEarlyLaunch } from "./early-launch.js";
import { workdirProviders } from "./engine-providers.js";

const LOCK = `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.100.0"
  constraints = "~> 5.0"
  hashes = [
    "h1:edXOJWE4ORX8Fm+dpVpICzMZJat4AX0VRCAy/xkcOc0=",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.0"
}
`;

describe("lockedProviders", () => {
  it("reads each provider block's address and selected version", () => {
    expect(lockedProviders(LOCK)).toEqual([
      { address: "registry.terraform.io/hashicorp/aws", version: "5.100.0" },
      { address: "registry.terraform.io/hashicorp/random", version: "3.6.0" },
    ]);
    expect(lockedProviders("")).toEqual([]);
    expect(lockedProviders('provider "x" {\n  constraints = "1.0"\n}\n')).toEqual([]);
  });
});

describe("earlyLaunchTargets", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-early-"));
    writeFileSync(join(dir, ".terraform.lock.hcl"), LOCK);
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", ".terraform.lock.hcl"), LOCK);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const two = ["registry.terraform.io/hashicorp/aws", "registry.terraform.io/hashicorp/random"];
  const of = (argv: string[], env: Record<string, string> = {}, cwd = dir): string[] | undefined => earlyLaunchTargets(argv, env, cwd)?.providers.map((p) => p.address);

  it("names the locked providers of a working-directory plan, apply, destroy or refresh", () => {
    for (const argv of [["plan"], ["apply", "-auto-approve"], ["destroy", "--auto-approve", "-parallelism=10"], ["refresh"], ["plan", "-var", "a=b", "--target", "x.y", "-out=p"], ["apply", "saved.plan"], ["plan", "-lock=false", "-o", "json"]]) {
      expect(of(argv)).toEqual(two);
    }
    expect(earlyLaunchTargets(["plan"], { TF_DATA_DIR: "data" }, dir)?.dataDir).toBe(join(dir, "data"));
    expect(earlyLaunchTargets(["plan"], {}, dir)?.dataDir).toBe(join(dir, ".terraform"));
  });

  it("follows -chdir", () => {
    for (const argv of [["-chdir=sub", "plan"], ["--chdir", "sub", "plan"]]) expect(earlyLaunchTargets(argv, {}, dir)?.dir).toBe(join(dir, "sub"));
  });

  it("reads TF_CLI_ARGS as the command will", () => {
    expect(of(["plan"], { TF_CLI_ARGS_plan: "-var x=1" })).toEqual(two);
    expect(of(["plan"], { TF_CLI_ARGS_plan: "random random_string" })).toBeUndefined();
  });

  it("launches nothing for other commands, help, the single-resource form, or without a lock file", () => {
    for (const argv of [[], ["--version"], ["init"], ["validate"], ["schema", "hashicorp/aws"], ["plan", "--help"], ["apply", "-h"], ["plan", "random", "random_string"], ["apply", "random", "random_string"], ["destroy", "random"], ["--log-level", "debug", "plan"]]) {
      expect(of(argv)).toBeUndefined();
    }
    expect(of(["plan"], {}, join(dir, "nowhere"))).toBeUndefined();
  });
});

describe("startEarlyLaunch with workdirProviders", () => {
  const ADDRESS = "example.com/test/early";
  let dir: string;
  let dataDir: string;
  const env = { ...process.env };
  const randomModule = createRequire(import.meta.url).resolve("@magma/provider-random");
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-early-launch-"));
    dataDir = join(dir, ".terraform");
    for (const version of ["1.0.0", "2.0.0"]) {
      writeProviderLauncher({ mirrorDir: join(dataDir, "providers"), hostname: "example.com", namespace: "test", type: "early", version, module: randomModule, exportName: "createRandomProvider" });
    }
    // magma/random is one of magma's native providers: the command serves it in-process, so even
    // with a plugin binary installed for it nothing is launched early.
    writeProviderLauncher({ mirrorDir: join(dataDir, "providers"), hostname: "registry.terraform.io", namespace: "magma", type: "random", version: "1.0.0", module: randomModule, exportName: "createRandomProvider" });
    writeFileSync(join(dir, ".terraform.lock.hcl"), `provider "${ADDRESS}" {\n  version = "1.0.0"\n}\n\nprovider "registry.terraform.io/magma/random" {\n  version = "1.0.0"\n}\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("hands the instance launched at start-up to the command's first open of it", async () => {
    const early = startEarlyLaunch(earlyLaunchTargets(["plan"], env, dir)!, env);
    const launched = await early.launched.get(ADDRESS);
    expect(launched?.kind).toBe("plugin");
    expect(await early.launched.get("registry.terraform.io/magma/random")).toBeUndefined();
    const pid = launched!.pid!;
    const providers = workdirProviders(dataDir, env, early);
    const opened = await providers.source.open(ADDRESS, { version: "1.0.0" });
    expect(opened.schema.resources.has("random_string")).toBe(true);
    await providers.close(); // nothing left to reap: the instance was taken
    expect(alive(pid)).toBe(true);
    await opened.close(); // closing what the command opened ends the early process: it was that one
    expect(alive(pid)).toBe(false);
    await early.close();
  }, 120_000);

  it("closes an instance the command does not use, and one launched from another binary than the open would use", async () => {
    const early = startEarlyLaunch(earlyLaunchTargets(["plan"], env, dir)!, env);
    const providers = workdirProviders(dataDir, env, early);
    const unused = (await early.launched.get(ADDRESS))!.pid!;
    await providers.close();
    expect(alive(unused)).toBe(false);
    await early.close();

    const again = startEarlyLaunch(earlyLaunchTargets(["plan"], env, dir)!, env);
    const wrong = (await again.launched.get(ADDRESS))!.pid!;
    const p2 = workdirProviders(dataDir, env, again);
    // The configuration now asks for 2.0.0: the early 1.0.0 instance is not used, and is closed.
    const opened = await p2.source.open(ADDRESS, { version: "2.0.0" });
    await p2.close();
    for (let i = 0; i < 200 && alive(wrong); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(wrong)).toBe(false);
    await opened.close();
    await again.close();
  }, 120_000);
});
