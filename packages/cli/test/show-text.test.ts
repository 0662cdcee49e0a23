// magma show and magma state show against terraform 1.11.4's on the same state, byte for
// byte: the objects rendered with the provider's schema (nested blocks, nested attributes,
// maps, heredocs, jsonencode, sensitive values per schema and per sensitive_attributes,
// legacy-SDK empty strings as null, write-only attributes, the tainted note). Three working
// directories, each applied once by terraform: hashicorp/aws's aws_ssm_parameter against
// @magma/fake-aws, and two native providers served by @magma/provider-server: one with
// nested attributes and sensitive values (test/testdata/secret-provider.mjs), one with
// nested blocks of every nesting (test/testdata/blocks-provider.mjs). Both tools read the same state file, so no value needs
// normalising. Skipped without terraform (and, for the first, without the AWS provider).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { writeProviderLauncher } from "@magma/provider-server";
import { TerraformWorkspace, awsFakeHcl, hasAwsProvider, hasTerraform, bundleLauncherEntry } from "@magma/test-support";
import { cleanUp, magma } from "./support/run-magma.js";

const testdata = join(dirname(fileURLToPath(import.meta.url)), "testdata");
const fixture = join(testdata, "secret-provider.mjs");

afterAll(() => {
  cleanUp();
});

const starts: (() => void)[] = [];
/**
 * A describe block's setup, started in the file's first hook together with the other blocks'
 * (each applies its own working directory: side by side); the block's beforeAll awaits it.
 */
function early(enabled: boolean, setup: () => Promise<void>): () => Promise<void> {
  let started: Promise<void> | undefined;
  if (enabled)
    starts.push(() => {
      started = setup();
      // Awaited (and reported) by the block's beforeAll; not an unhandled rejection meanwhile.
      started.catch(() => undefined);
    });
  return () => started ?? Promise.reject(new Error("the setup was not started"));
}
beforeAll(() => {
  for (const start of starts) start();
});

/** Asserts that magma prints what terraform prints for the same arguments (terraform with -no-color). */
async function same(ws: TerraformWorkspace, args: readonly string[]): Promise<string> {
  // Both only read the state: side by side.
  const [m, t] = await Promise.all([magma(args, { cwd: ws.dir }), ws.run([...args.slice(0, args[0] === "state" ? 2 : 1), "-no-color", ...args.slice(args[0] === "state" ? 2 : 1)])]);
  expect([args, m.stderr, m.code]).toEqual([args, "", 0]);
  expect(m.stdout).toBe(t.stdout);
  return m.stdout;
}

const withAws = hasTerraform() && hasAwsProvider() ? describe : describe.skip;

withAws("hashicorp/aws's aws_ssm_parameter against @magma/fake-aws", () => {
  let fake: FakeAws;
  let ws: TerraformWorkspace;

  const ready = early(hasTerraform() && hasAwsProvider(), async () => {
    fake = await startFakeAws();
    ws = TerraformWorkspace.create("magma-show-aws-");
    ws.write(
      "main.tf",
      `${awsFakeHcl(fake.url)}
resource "aws_ssm_parameter" "secret" {
  name  = "/show/secret"
  type  = "SecureString"
  value = "hunter2"
}
resource "aws_ssm_parameter" "plain" {
  name        = "/show/plain"
  type        = "String"
  description = "a plain one"
  value       = jsonencode({ b = [1, "two"], a = { nested = true } })
  tags        = { Name = "plain", "with space" = "x", blank = "" }
}
resource "aws_ssm_parameter" "lines" {
  name        = "/show/lines"
  type        = "String"
  value       = "v"
  description = "first line\\nsecond line\\n"
}
output "arn" {
  value = aws_ssm_parameter.plain.arn
}
`,
    );
    await ws.init();
    await ws.run(["apply", "-auto-approve", "-input=false", "-no-color"]);
  });
  beforeAll(() => ready(), 300_000);

  afterAll(async () => {
    ws?.dispose();
    await fake?.close();
  });

  test("state show of each parameter and show of the whole state print what terraform prints", async () => {
    const secret = await same(ws, ["state", "show", "aws_ssm_parameter.secret"]);
    expect(secret).toMatch(/\n    value +\= \(sensitive value\)\n/);
    expect(secret).not.toContain("hunter2");
    const plain = await same(ws, ["state", "show", "aws_ssm_parameter.plain"]);
    expect(plain).toContain('"with space" = "x"');
    expect(plain).toContain("    value_wo        = (write-only attribute)\n");
    expect(await same(ws, ["state", "show", "aws_ssm_parameter.lines"])).toContain("<<-EOT");
    const all = await same(ws, ["show"]);
    expect(all).toContain("\nOutputs:\n");
  }, 300_000);
});

const withTerraform = hasTerraform() ? describe : describe.skip;

withTerraform("a native provider with nested blocks and sensitive attributes, served by @magma/provider-server", () => {
  let ws: TerraformWorkspace;
  // Holds the mirror, which terraform init links .terraform/providers into.
  let base: TerraformWorkspace;

  const ready = early(hasTerraform(), async () => {
    base = TerraformWorkspace.create("magma-show-mirror-");
    const mirror = join(base.dir, "mirror");
    bundleLauncherEntry(writeProviderLauncher({ mirrorDir: mirror, hostname: "example.com", type: "vault", version: "1.0.0", module: fixture, protocolVersions: [6] }));
    ws = TerraformWorkspace.create("magma-show-vault-", { cliConfig: { mirrors: [{ path: mirror }] } });
    ws.write(
      "main.tf",
      `terraform {
  required_providers {
    vault = { source = "example.com/magma/vault" }
  }
}
provider "vault" {
  token = "provider-token"
}
resource "vault_secret" "a" {
  name = "a"
  tags = { env = "prod", "odd key" = "v", policy = jsonencode({ Statement = [{ Effect = "Allow" }] }) }
  login = {
    user     = "u"
    password = "HUNTER2-SECRET"
    factors  = [{ kind = "totp", code = "FACTOR-SECRET" }, { kind = "sms" }]
  }
  logins = [{ user = "x", password = "LIST-SECRET" }]
  by_env = {
    prod = { note = "line one\\nline two\\n", password = "MAP-SECRET" }
    dev  = { note = "d" }
  }
  backend {
    url  = "https://vault.example"
    auth = { key = "BLOCK-SECRET" }
  }
  backend {
    url = ""
  }
}
resource "vault_secret" "b" {
  name = "b"
}
resource "vault_secret" "e" {
  name = ""
}
`,
    );
    await ws.init();
    await ws.run(["apply", "-auto-approve", "-input=false", "-no-color"]);
    await ws.run(["taint", "-no-color", "vault_secret.b"]);
  });
  beforeAll(() => ready(), 300_000);

  afterAll(() => {
    ws?.dispose();
    base?.dispose();
  });

  test("state show and show print what terraform prints; no secret is printed", async () => {
    const a = await same(ws, ["state", "show", "vault_secret.a"]);
    expect(a).toContain("\n    backend {\n");
    for (const s of ["HUNTER2-SECRET", "FACTOR-SECRET", "LIST-SECRET", "MAP-SECRET", "BLOCK-SECRET"]) expect(a).not.toContain(s);
    expect(await same(ws, ["state", "show", "vault_secret.b"])).toContain("# vault_secret.b: (tainted)\n");
    expect(await same(ws, ["state", "show", "vault_secret.e"])).toContain('    name = ""\n');
    await same(ws, ["show"]);
  }, 300_000);

  test("without the provider, show, show -json and state show fail with terraform's diagnostic and exit code, plain and coloured", async () => {
    // Terraform colours its diagnostics unless -no-color or TF_IN_AUTOMATION (even when piped); magma under FORCE_COLOR=1.
    const copy = TerraformWorkspace.create("magma-show-noprov-", { env: { TF_IN_AUTOMATION: undefined } });
    try {
      const { cpSync } = await import("node:fs");
      cpSync(join(ws.dir, "terraform.tfstate"), join(copy.dir, "terraform.tfstate"));
      for (const args of [["show"], ["show", "-json"], ["state", "show", "vault_secret.a"]]) {
        // All four only read the state (and fail at the missing provider): side by side.
        const [m, t, coloured, theirs] = await Promise.all([
          magma(args, { cwd: copy.dir }),
          copy.run([...args.slice(0, args[0] === "state" ? 2 : 1), "-no-color", ...args.slice(args[0] === "state" ? 2 : 1)], { allowFailure: true }),
          magma(args, { cwd: copy.dir, env: { FORCE_COLOR: "1" } }),
          copy.run(args, { allowFailure: true }),
        ]);
        expect([args, m.code, m.stdout]).toEqual([args, 1, ""]);
        expect([args, t.code]).toEqual([args, 1]);
        expect([args, m.stderr]).toEqual([args, t.stderr]);
        expect(m.stderr).toContain("Error: Failed to load plugin schemas\n");
        expect([args, coloured.code, coloured.stdout, coloured.stderr]).toEqual([args, theirs.code, theirs.stdout, theirs.stderr]);
        expect(coloured.stderr).toMatch(/^\x1b\[31m╷\x1b\[0m\x1b\[0m\n\x1b\[31m│\x1b\[0m \x1b\[0m\x1b\[1m\x1b\[31mError: \x1b\[0m\x1b\[0m\x1b\[1mFailed to load plugin schemas\x1b\[0m\n/);
      }
    } finally {
      copy.dispose();
    }
  }, 300_000);
});

withTerraform("a native provider with nested blocks of every nesting (test/testdata/blocks-provider.mjs)", () => {
  let ws: TerraformWorkspace;
  let base: TerraformWorkspace;

  const ready = early(hasTerraform(), async () => {
    base = TerraformWorkspace.create("magma-show-mirror-");
    const mirror = join(base.dir, "mirror");
    bundleLauncherEntry(writeProviderLauncher({ mirrorDir: mirror, hostname: "example.com", type: "blocks", version: "1.0.0", module: join(testdata, "blocks-provider.mjs"), protocolVersions: [6] }));
    ws = TerraformWorkspace.create("magma-show-blocks-", { cliConfig: { mirrors: [{ path: mirror }] } });
    ws.write(
      "main.tf",
      `terraform {
  required_providers {
    blocks = { source = "example.com/magma/blocks" }
  }
}
resource "blocks_thing" "full" {
  name   = "full"
  note   = ""
  secret = "S3CRET"
  labels = { b = "2", a = "", "c d" = "x" }
  one {
    a = "x"
  }
  rule "web" {
    port = "80"
  }
  rule "db" {
    port  = "5432"
    proto = "tcp"
  }
  many {
    v = "p"
  }
  many {
    v = "q"
  }
  step {
    cmd = "run"
    arg {
      value = "1"
    }
    arg {
      hidden = "H1DDEN"
    }
  }
  step {}
}
resource "blocks_thing" "bare" {
  name = "bare"
}
`,
    );
    await ws.init();
    await ws.run(["apply", "-auto-approve", "-input=false", "-no-color"]);
  });
  beforeAll(() => ready(), 300_000);

  afterAll(() => {
    ws?.dispose();
    base?.dispose();
  });

  test("state show and show print what terraform prints", async () => {
    const full = await same(ws, ["state", "show", "blocks_thing.full"]);
    expect(full).toContain('    rule "db" {\n');
    for (const s of ["S3CRET", "H1DDEN"]) expect(full).not.toContain(s);
    await same(ws, ["state", "show", "blocks_thing.bare"]);
    await same(ws, ["show"]);
  }, 300_000);
});
