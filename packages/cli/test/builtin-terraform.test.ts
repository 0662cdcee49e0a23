// Terraform's built-in provider (terraform.io/builtin/terraform) native in magma, against
// terraform 1.11.4 on the same files, in native and JSON syntax: terraform_data (create,
// trigger replacement, import), terraform_remote_state over the local and http backends, the
// provider functions; and the http backend shared by both tools (state taken over with no
// changes, locks blocking each other). Skipped without terraform.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createHttpBackend } from "@magma/state";
import { startHttpStateServer, type HttpStateServer } from "@magma/test-support";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, copyWorkdir, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const maybe = TERRAFORM === undefined ? describe.skip : describe;
const env = { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

let server: HttpStateServer;
beforeAll(async () => {
  server = await startHttpStateServer();
});
afterAll(async () => {
  cleanUp();
  removeWorkdirs();
  await server?.close();
});

const PRODUCER = `output "s" {\n  value = "hello"\n}\noutput "secret" {\n  value     = "pw"\n  sensitive = true\n}\noutput "l" {\n  value = [1, 2]\n}\noutput "m" {\n  value = tomap({ a = "b" })\n}\n`;

/** The consumer configuration, native syntax. */
function consumerTf(statePath: string): string {
  return `terraform {
  required_providers {
    terraform = { source = "terraform.io/builtin/terraform" }
  }
}
data "terraform_remote_state" "p" {
  backend = "local"
  config = {
    path = ${JSON.stringify(statePath)}
  }
  defaults = { s = "dflt", extra = "e" }
}
resource "terraform_data" "a" {
  input            = data.terraform_remote_state.p.outputs.l
  triggers_replace = [var.trigger]
}
variable "trigger" {
  default = "one"
}
output "outputs" {
  value = data.terraform_remote_state.p.outputs
}
output "data_output" {
  value = terraform_data.a.output
}
output "expr" {
  value = provider::terraform::encode_expr({ a = [1, "x"], b = { c = true, "d e" = null }, s = "q\\"\\n", m = data.terraform_remote_state.p.outputs.m })
}
output "tfvars" {
  value = provider::terraform::encode_tfvars({ a = [1, "x"], _b = { c = 1.5 } })
}
output "decoded" {
  value = provider::terraform::decode_tfvars("a = 1\\nb = [\\"x\\", true]\\n")
}
`;
}

/** The same consumer, JSON syntax. */
function consumerTfJson(statePath: string): string {
  return JSON.stringify({
    terraform: { required_providers: { terraform: { source: "terraform.io/builtin/terraform" } } },
    data: { terraform_remote_state: { p: { backend: "local", config: { path: statePath }, defaults: { s: "dflt", extra: "e" } } } },
    resource: { terraform_data: { a: { input: "${data.terraform_remote_state.p.outputs.l}", triggers_replace: ["${var.trigger}"] } } },
    variable: { trigger: { default: "one" } },
    output: {
      outputs: { value: "${data.terraform_remote_state.p.outputs}" },
      data_output: { value: "${terraform_data.a.output}" },
      expr: { value: '${provider::terraform::encode_expr({ a = [1, "x"], b = { c = true, "d e" = null }, s = "q\\"\\n", m = data.terraform_remote_state.p.outputs.m })}' },
      tfvars: { value: '${provider::terraform::encode_tfvars({ a = [1, "x"], _b = { c = 1.5 } })}' },
      decoded: { value: '${provider::terraform::decode_tfvars("a = 1\\nb = [\\"x\\", true]\\n")}' },
    },
  });
}

/** A state file without what differs between two applies (lineage, serial, terraform_data ids). */
function comparableState(dir: string): unknown {
  const s = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as Record<string, unknown>;
  delete s["lineage"];
  delete s["serial"];
  for (const r of s["resources"] as { instances: { attributes: Record<string, unknown> }[] }[]) for (const i of r.instances) if (typeof i.attributes["id"] === "string") i.attributes["id"] = "<id>";
  return s;
}

const magmaIn = (args: string[], cwd: string): ReturnType<typeof magma> => magma(args, { cwd, env });

maybe.each([
  ["native", "main.tf", consumerTf],
  ["JSON", "main.tf.json", consumerTfJson],
] as const)("the built-in provider, %s syntax", (_syntax, file, consumer) => {
  test("terraform_data, terraform_remote_state and the functions as terraform: same outputs and state, each plans the other's state with no changes", async () => {
    const producer = workdir({ "main.tf": PRODUCER });
    await terraformAsync(["apply", "-auto-approve", "-input=false"], producer, { env });
    const statePath = join(producer, "terraform.tfstate");
    const t = workdir({ [file]: consumer(statePath) });
    const m = copyWorkdir(t);
    await terraformAsync(["apply", "-auto-approve", "-input=false"], t, { env });
    const ma = await magmaIn(["apply", "-auto-approve", "-input=false"], m);
    expect(ma.stderr).toBe("");
    expect(ma.code).toBe(0);
    const tOut = JSON.parse((await terraformAsync(["output", "-json"], t, { env })).stdout) as unknown;
    const mOut = JSON.parse((await magmaIn(["output", "-json"], m)).stdout) as unknown;
    expect(mOut).toEqual(tOut);
    expect(comparableState(m)).toEqual(comparableState(t));
    // Each takes over the other's state with no changes.
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false"], m, { env });
    const mp = await magmaIn(["plan", "-detailed-exitcode", "-input=false"], t);
    expect(mp.stderr).toBe("");
    expect(mp.code).toBe(0);
    // A changed trigger replaces the object, in both.
    const tp = await terraformAsync(["plan", "-no-color", "-input=false", "-var", "trigger=two"], t, { env });
    const mp2 = await magmaIn(["plan", "-no-color", "-input=false", "-var", "trigger=two"], t);
    for (const out of [tp.stdout, mp2.stdout]) {
      expect(out).toContain("# terraform_data.a must be replaced");
      expect(out).toContain("Plan: 1 to add, 0 to change, 1 to destroy.");
    }
  });
});

maybe("terraform_data import and remote state errors", () => {
  test("import by id stores what terraform stores", async () => {
    const files = { "main.tf": `resource "terraform_data" "x" {\n}\n` };
    const t = workdir(files);
    const m = workdir(files);
    await terraformAsync(["import", "-input=false", "terraform_data.x", "some-id"], t, { env });
    const mi = await magmaIn(["import", "terraform_data.x", "some-id"], m);
    expect(mi.code).toBe(0);
    const strip = (d: string): unknown => {
      const s = JSON.parse(readFileSync(join(d, "terraform.tfstate"), "utf8")) as Record<string, unknown>;
      delete s["lineage"];
      return s["resources"];
    };
    expect(strip(m)).toEqual(strip(t));
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false"], m, { env });
  });

  test.each([
    ["no state at the path", `backend = "local"\n  config = { path = "nothing.tfstate" }`, "Unable to find remote state"],
    ["an unknown backend type", `backend = "nope"`, "Invalid backend configuration"],
    ["an unknown setting", `backend = "local"\n  config = { bogus = 1 }`, "Invalid backend configuration"],
  ])("%s: terraform's error", async (_what, body, summary) => {
    const dir = workdir({ "main.tf": `data "terraform_remote_state" "p" {\n  ${body}\n}\n` });
    const t = await terraformAsync(["plan", "-no-color", "-input=false"], dir, { env, expect: 1 });
    const m = await magmaIn(["plan", "-no-color", "-input=false"], dir);
    expect(m.code).toBe(1);
    expect(t.stderr).toContain(`Error: ${summary}`);
    expect(m.stderr).toContain(`Error: ${summary}`);
    const detail = (s: string): string => s.split("\n").filter((l) => /There is no|not valid for backend|No stored state/.test(l)).join("\n");
    expect(detail(m.stderr)).toBe(detail(t.stderr));
  });
});

maybe("the http backend, shared with terraform", () => {
  const block = (path: string): string =>
    `terraform {\n  backend "http" {\n    address        = "${server.url}${path}"\n    lock_address   = "${server.url}${path}"\n    unlock_address = "${server.url}${path}"\n    retry_wait_min = 0\n  }\n}\n`;

  test("init records the block as terraform does; state written by one is planned with no changes by the other; remote state reads it", async () => {
    const files = { "main.tf": `${block("/shared")}resource "terraform_data" "a" {\n  input = var.v\n}\nvariable "v" {\n  default = "x"\n}\noutput "o" {\n  value = terraform_data.a.output\n}\n` };
    const t = workdir(files);
    const m = workdir(files);
    await terraformAsync(["init", "-input=false"], t, { env });
    const mi = await magmaIn(["init", "-input=false"], m);
    expect(mi.code).toBe(0);
    expect(readFileSync(join(m, ".terraform", "terraform.tfstate"), "utf8")).toBe(readFileSync(join(t, ".terraform", "terraform.tfstate"), "utf8"));
    await terraformAsync(["apply", "-auto-approve", "-input=false"], t, { env });
    let r = await magmaIn(["plan", "-detailed-exitcode", "-input=false"], m);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    r = await magmaIn(["apply", "-auto-approve", "-input=false", "-var", "v=y"], m);
    expect(r.code).toBe(0);
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false", "-var", "v=y"], t, { env });
    expect(server.locks.size).toBe(0);
    // terraform_remote_state over the http backend, in both.
    const reader = workdir({
      "main.tf": `data "terraform_remote_state" "h" {\n  backend = "http"\n  config = {\n    address = "${server.url}/shared"\n  }\n}\noutput "o" {\n  value = data.terraform_remote_state.h.outputs.o\n}\n`,
    });
    const readerM = copyWorkdir(reader);
    await terraformAsync(["apply", "-auto-approve", "-input=false"], reader, { env });
    expect((await magmaIn(["apply", "-auto-approve", "-input=false"], readerM)).code).toBe(0);
    expect((await magmaIn(["output", "-raw", "o"], readerM)).stdout).toBe("y");
    expect((await terraformAsync(["output", "-raw", "o"], reader, { env })).stdout).toBe("y");
  });

  test("a lock held on the server blocks terraform and magma alike; force-unlock releases it", async () => {
    const files = { "main.tf": `${block("/locked")}resource "terraform_data" "a" {\n}\n` };
    const t = workdir(files);
    const m = workdir(files);
    await terraformAsync(["init", "-input=false"], t, { env });
    expect((await magmaIn(["init", "-input=false"], m)).code).toBe(0);
    const holder = createHttpBackend({ address: `${server.url}/locked`, lockAddress: `${server.url}/locked`, unlockAddress: `${server.url}/locked`, env: {} }).store("default");
    const id = await holder.lock({ operation: "OperationTypeApply" });
    const tp = await terraformAsync(["plan", "-no-color", "-input=false"], t, { env, expect: 1 });
    const mp = await magmaIn(["plan", "-no-color", "-input=false"], m);
    expect(mp.code).toBe(1);
    for (const out of [tp.stderr, mp.stderr]) {
      expect(out).toContain("Error acquiring the state lock");
      expect(out).toContain(`HTTP remote state already locked`);
    }
    expect(mp.stderr).toContain(id);
    expect(server.states.has("/locked")).toBe(false);
    const fu = await magmaIn(["force-unlock", "-force", id], m);
    expect(fu.code).toBe(0);
    expect(server.locks.size).toBe(0);
    expect((await magmaIn(["apply", "-auto-approve", "-input=false"], m)).code).toBe(0);
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false"], t, { env });
  });
});
