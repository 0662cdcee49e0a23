// Write-only attributes against terraform 1.11.4 on the same files, in both syntaxes, with a
// native provider served by @magma/provider-server (test/testdata/wo-provider.mjs): a
// top-level write-only attribute, one in a nested attribute and one in a list block, set from
// a sensitive variable. Plan and apply print `(write-only attribute)` as terraform does; the
// provider receives the values at plan and apply (its call log); they never reach the state
// or a saved plan; changing only the secret plans nothing, changing `secret_wo_version` plans
// the update that sends it again; `show -json` of the saved plan is terraform's document
// (`sensitive_values` marking the write-only and schema-sensitive attributes). And terraform's errors for a provider that answers a value
// for a write-only attribute at plan, at apply and at refresh. Skipped without terraform.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { comparableText, expectSameRuns, initialisedPair, runPair, stableState, type Pair } from "./support/lang-pair.js";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const d = TERRAFORM !== undefined ? describe : describe.skip;

let cliConfig: string | undefined;
/** The CLI configuration serving test/testdata/wo-provider.mjs as magma/wo. */
const woCliConfig = (): string => (cliConfig ??= testProvidersCliConfig({ wo: "wo-provider.mjs" }));

const SECRET = "wo-secret-one";
const SECRET2 = "wo-secret-two";

const TF = `terraform {
  required_providers {
    wo = { source = "magma/wo" }
  }
}
variable "secret" {
  type      = string
  sensitive = true
  default   = "${SECRET}"
}
variable "ver" {
  type    = number
  default = 1
}
resource "wo_secret" "s" {
  name              = "s"
  secret_wo         = var.secret
  secret_wo_version = var.ver
  login = {
    user     = "u"
    token_wo = "tok-\${var.secret}"
    pin_wo   = "1234"
  }
  cred {
    user        = "c"
    password_wo = var.secret
  }
}
output "id" {
  value = wo_secret.s.id
}
`;

const JSON_CONFIG = JSON.stringify({
  terraform: { required_providers: { wo: { source: "magma/wo" } } },
  variable: { secret: { type: "string", sensitive: true, default: SECRET }, ver: { type: "number", default: 1 } },
  resource: {
    wo_secret: {
      s: {
        name: "s",
        secret_wo: "${var.secret}",
        secret_wo_version: "${var.ver}",
        login: { user: "u", token_wo: "tok-${var.secret}", pin_wo: "1234" },
        cred: [{ user: "c", password_wo: "${var.secret}" }],
      },
    },
  },
  output: { id: { value: "${wo_secret.s.id}" } },
});

/** A file of resources whose `name`s make the provider misbehave (see wo-provider.mjs), with the `terraform` block. */
const leakTf = (...names: string[]): Record<string, string> => ({
  "leak.tf": `terraform {\n  required_providers {\n    wo = { source = "magma/wo" }\n  }\n}\n${names.map((n) => `resource "wo_secret" "${n}" {\n  name      = "${n}"\n  secret_wo = "leaked-${n}"\n}\n`).join("")}`,
});
const leakJson = (...names: string[]): Record<string, string> => ({
  "leak.tf.json": JSON.stringify({ terraform: { required_providers: { wo: { source: "magma/wo" } } }, resource: { wo_secret: Object.fromEntries(names.map((n) => [n, { name: n, secret_wo: `leaked-${n}` }])) } }),
});

/** The provider's call log in a working directory: one line per plan and apply. */
function calls(dir: string): string[] {
  return readFileSync(join(dir, "wo-calls.log"), "utf8").trimEnd().split("\n");
}

/**
 * A state ({@link stableState}) with each object's `sensitive_attributes` sorted: terraform
 * lists an object's sensitive paths in Go's random map order (cty's transform walks object
 * attributes so), so only the set is compared.
 */
function sortedPaths(state: unknown): unknown {
  const doc = state as { resources?: { instances: { sensitive_attributes?: unknown[] }[] }[] };
  for (const r of doc.resources ?? []) for (const i of r.instances) if (i.sensitive_attributes !== undefined) i.sensitive_attributes = i.sensitive_attributes.map((p) => JSON.stringify(p)).sort();
  return doc;
}

/**
 * Files a run leaves that could hold a value: state, its backup, saved plans (magma's are
 * JSON with msgpack values: decoded; without the configuration snapshot, which holds the
 * source files as terraform's plan does).
 */
function persisted(dir: string, files: readonly string[]): string {
  return files
    .map((f) => {
      const doc = JSON.parse(readFileSync(join(dir, f), "utf8")) as Record<string, unknown>;
      delete doc["config_snapshot"];
      const text = JSON.stringify(doc);
      // Saved plans hold values as base64 msgpack: decoded, the strings are in the bytes.
      const decoded = [...text.matchAll(/"msgpack":"([^"]*)"/g)].map((m) => Buffer.from(m[1]!, "base64").toString("latin1")).join("\n");
      return `${text}\n${decoded}`;
    })
    .join("\n");
}

d.each([
  ["native", { "main.tf": TF }, leakTf],
  ["JSON", { "main.tf.json": JSON_CONFIG }, leakJson],
] as const)("write-only attributes (%s syntax)", (_syntax, files, leak) => {
  let pair: Pair;

  test("sent at plan and apply, shown as (write-only attribute), never in state or saved plans; *_wo_version drives the update", async () => {
    pair = await initialisedPair(files, woCliConfig());
    const commands = [
      ["apply", "-auto-approve"],
      ["plan", "-detailed-exitcode", `-var=secret=${SECRET2}`],
      ["plan", `-var=secret=${SECRET2}`, "-var=ver=2", "-out=wo.plan"],
      ["apply", "wo.plan"],
      ["plan", "-detailed-exitcode", `-var=secret=${SECRET2}`, "-var=ver=2"],
    ];
    const runs = await runPair(pair, commands.slice(0, 3), woCliConfig());
    // show -json of the saved plan: terraform's document (`variables` with -var=ver=2 kept as the string "2" it was given),
    // write-only attributes null and marked in sensitive_values where terraform marks them.
    const shown = await Promise.all([runTool("magma", ["show", "-json", "wo.plan"], pair[0], {}), runTool("terraform", ["show", "-json", "wo.plan"], pair[1], { TF_CLI_CONFIG_FILE: woCliConfig() })]);
    const doc = (r: ToolRun): unknown => {
      const { timestamp: _t, terraform_version: _v, ...rest } = JSON.parse(r.stdout) as Record<string, unknown>;
      return rest;
    };
    expect(doc(shown[0])).toEqual(doc(shown[1]));
    expect(JSON.stringify(doc(shown[0]))).toContain('"planned_values":{"outputs":{"id":{"sensitive":false,"type":"string","value":"wo-s"}},"root_module":{"resources":[{"address":"wo_secret.s"');
    expect(JSON.stringify(doc(shown[0]))).toContain('"secret_wo_version":2},"sensitive_values":{"cred":[{"password_wo":true}],"login":{"pin_wo":true,"token_wo":true},"secret_wo":true}}]}}');
    runs.push(...(await runPair(pair, commands.slice(3), woCliConfig())));
    expectSameRuns(runs, commands);
    expect(runs[0]![0].stdout).toContain("+ secret_wo         = (write-only attribute)");
    expect(runs[2]![0].stdout).toContain("~ secret_wo_version = 1 -> 2");
    expect(sortedPaths(stableState(pair[0]))).toEqual(sortedPaths(stableState(pair[1])));
    for (const dir of pair) {
      // The provider saw every value at plan and apply, the new secret at the versioned update.
      const log = calls(dir);
      const sent = (secret: string): string => `s login.pin_wo=1234 login.token_wo=tok-${secret} secret_wo=${secret} cred[0].password_wo=${secret}`;
      expect(log[0]).toBe(`plan ${sent(SECRET)}`);
      expect(log).toContain(`apply ${sent(SECRET)}`);
      expect(log).toContain(`apply ${sent(SECRET2)}`);
      const stored = persisted(dir, ["terraform.tfstate", "terraform.tfstate.backup"]);
      for (const v of [SECRET, SECRET2, "1234"]) expect(stored).not.toContain(v);
    }
    // magma's saved plan (terraform's is a zip, compressed): no write-only value in it, only
    // the variable's (a plan keeps the variables' values, as terraform's does).
    const plan = persisted(pair[0], ["wo.plan"]);
    for (const v of [SECRET, `tok-${SECRET2}`, "1234"]) expect(plan).not.toContain(v);
    expect(plan.split(SECRET2).length - 1).toBe(1);
  }, 600_000);

  test("a provider answering a value for a write-only attribute: terraform's errors at plan, at apply and at refresh", async () => {
    // Planned with a value: the plan fails.
    const planLeak = await initialisedPair(leak("leak-plan"), woCliConfig());
    const planRuns = await runPair(planLeak, [["plan"]], woCliConfig());
    expectSameRuns(planRuns, [["plan"]]);
    expect(planRuns[0]![0].stderr.replace(/\s+/g, " ")).toContain('returned a value for the write-only attribute "wo_secret.leak-plan.secret_wo" during planning');
    // Returned after apply: the apply fails; returned by a read: the next plan fails.
    const other = await initialisedPair(leak("leak-apply", "leak-read"), woCliConfig());
    const commands = [["apply", "-auto-approve"], ["plan"]];
    const runs = await runPair(other, commands, woCliConfig());
    expectSameRuns(runs.slice(0, 1), commands);
    expect(runs[0]![0].stderr.replace(/\s+/g, " ")).toContain('returned a value for the write-only attribute "wo_secret.leak-apply.secret_wo" after apply');
    // The read's error is terraform's. Terraform saved nothing of the object whose apply
    // answered a write-only value; magma keeps it (without the value) tainted, as a failed
    // create: the remote object exists and is not lost, so its plan replaces it.
    const [ours, theirs] = runs[1]!;
    expect([ours.code, comparableText(ours.stderr)]).toEqual([theirs.code, comparableText(theirs.stderr)]);
    expect(ours.stderr.replace(/\s+/g, " ")).toContain('returned a value for the write-only attribute "wo_secret.leak-read.secret_wo" during refresh');
    expect(ours.stdout).toContain("# wo_secret.leak-apply is tainted, so must be replaced");
    expect(theirs.stdout).toContain("# wo_secret.leak-apply will be created");
  }, 600_000);
});
