/**
 * The README's example, as a user would run it: type-checked under strict settings against
 * the built package (self-referenced by name), transpiled and run with node in the package
 * directory. The launcher it writes is then started as Terraform starts a provider (magic
 * cookie, protocol 6), answers the handshake and a schema request for random_string, and
 * exits 0 on GRPCController.Shutdown; where terraform exists, `terraform init` installs it
 * from the mirror (as the README's closing comment says) and applies a random_string.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect as netConnect } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { GRPCController, Tfplugin6Provider } from "@magma/tfplugin";
import ts from "typescript";
import { MAGIC_COOKIE, expectExit, start, tempDir, terraform, terraformEnv, type Child } from "./support/harness.js";
import { hasTerraform } from "@magma/test-support";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");

function example(): string {
  const m = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(pkg, "README.md"), "utf8"));
  if (m === null) throw new Error("README.md has no ```ts example");
  return m[1]!;
}

let tmp: { dir: string; cleanup(): void };
const children: Child[] = [];

beforeAll(() => {
  tmp = tempDir("psrd-");
});
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  tmp.cleanup();
});

test("the README example type-checks under the strict settings", () => {
  const dir = join(pkg, ".readme-check");
  mkdirSync(dir, { recursive: true });
  try {
    const file = join(dir, "example.mts");
    writeFileSync(file, example());
    const program = ts.createProgram([file], {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noImplicitReturns: true,
      noUnusedLocals: true,
      verbatimModuleSyntax: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: ["node"],
      noEmit: true,
      skipLibCheck: true,
    });
    const diags = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diags).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("the README example run", () => {
  let executable: string;
  const mirror = (): string => join(tmp.dir, "mirror");

  test("writes the launcher in the filesystem-mirror layout and prints its path", () => {
    const dir = join(pkg, ".readme-run");
    mkdirSync(dir, { recursive: true });
    try {
      const js = ts.transpileModule(example(), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
      const file = join(dir, "example.mjs");
      writeFileSync(file, js);
      const out = execFileSync(process.execPath, [file, mirror()], { cwd: pkg, encoding: "utf8", timeout: 60_000 });
      executable = out.trim();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(executable).toBe(join(mirror(), "example.com/magma/random/1.0.0/linux_amd64/terraform-provider-random_v1.0.0"));
    expect(existsSync(executable)).toBe(true);
  });

  test("the launcher serves @magma/provider-random: handshake, schema, Shutdown exits 0", async () => {
    const { PLUGIN_CLIENT_CERT: _p, ...host } = process.env;
    const c = start(executable, [], { ...host, TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE, PLUGIN_PROTOCOL_VERSIONS: "6", TMPDIR: tmp.dir });
    children.push(c);
    const m = /^1\|6\|unix\|([^|]+)\|grpc\|$/.exec(await c.firstLine);
    expect(m).not.toBeNull();
    const socket = m![1]!;
    const sessionManager = new Http2SessionManager("http://localhost", {}, { createConnection: () => netConnect({ path: socket }) });
    const transport = createGrpcTransport({ baseUrl: "http://localhost", sessionManager });
    try {
      const schema = await createClient(Tfplugin6Provider, transport).getProviderSchema({});
      expect(Object.keys(schema.resourceSchemas).sort()).toEqual(["random_id", "random_integer", "random_password", "random_pet", "random_shuffle", "random_string", "random_uuid"]);
      await createClient(GRPCController, transport).shutdown({}).catch((e: unknown) => {
        // A server may drop the connection before answering.
        expect(ConnectError.from(e).code).toBe(Code.Unavailable);
      });
    } finally {
      sessionManager.abort();
    }
    expect(await c.exited).toBe(0);
    expect(existsSync(socket)).toBe(false);
  });

  (hasTerraform() ? test : test.skip)("terraform init installs it from the mirror; apply and destroy a random_string", async () => {
    const work = join(tmp.dir, "work");
    mkdirSync(work);
    writeFileSync(
      join(work, "main.tf"),
      'terraform {\n  required_providers {\n    random = { source = "example.com/magma/random", version = "1.0.0" }\n  }\n}\nresource "random_string" "s" {\n  length = 12\n}\noutput "length" { value = length(random_string.s.result) }\n',
    );
    const env = terraformEnv(tmp.dir); // a filesystem_mirror at <tmp>/mirror
    const tf = (...args: string[]) => terraform(args, work, env);
    expectExit(await tf("init", "-no-color"), 0, "init", env);
    expect(existsSync(join(work, ".terraform/providers/example.com/magma/random/1.0.0/linux_amd64/terraform-provider-random_v1.0.0"))).toBe(true);
    const apply = await tf("apply", "-auto-approve", "-no-color");
    expectExit(apply, 0, "apply", env);
    expect(apply.stdout).toContain("length = 12");
    expectExit(await tf("destroy", "-auto-approve", "-no-color"), 0, "destroy", env);
  });
});
