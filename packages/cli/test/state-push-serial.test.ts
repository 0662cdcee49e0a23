// `state push` against terraform 1.11.4 on the same local states: the serial written (the
// file's, plus one when its objects differ from the stored state's, as terraform's local
// state manager writes after importing), what is refused without -force (printed as
// terraform prints it: one `Failed to write state: …` line) and what -force lets through
// (an older serial, another lineage), and any push over an empty state. Each step's file is
// made from that tool's own state (their lineages differ). Exit code, stderr (lineages
// blanked) and the stored serial and lineage compared. Skipped without terraform.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initialisedPair, pairCliConfig } from "./support/lang-pair.js";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

interface Doc {
  serial: number;
  lineage: string;
  outputs: Record<string, unknown>;
  [k: string]: unknown;
}

/** A step: the file pushed, made from the stored state (undefined when there is none), and the flags. */
interface Step {
  readonly name: string;
  readonly force?: boolean;
  readonly file: (stored: Doc) => Doc;
}

const withOutput = (d: Doc, name: string): Doc => ({ ...d, outputs: { ...d.outputs, [name]: { value: name, type: "string" } } });

const STEPS: readonly Step[] = [
  { name: "a newer serial, same objects", file: (d) => ({ ...d, serial: d.serial + 2 }) },
  { name: "a newer serial, another output", file: (d) => withOutput({ ...d, serial: d.serial + 3 }, "extra") },
  { name: "an older serial", file: (d) => withOutput({ ...d, serial: 1 }, "older") },
  { name: "an older serial, forced, same objects", force: true, file: (d) => ({ ...d, serial: 1 }) },
  { name: "an older serial, forced, other objects", force: true, file: (d) => withOutput({ ...d, serial: 1 }, "forced") },
  { name: "the same serial, other objects", file: (d) => withOutput(d, "same-serial") },
  { name: "the same serial and objects", file: (d) => ({ ...d }) },
  { name: "another lineage", file: (d) => ({ ...d, lineage: "another-lineage", serial: d.serial + 1 }) },
  { name: "another lineage, forced", force: true, file: (d) => withOutput({ ...d, lineage: "another-lineage", serial: 4 }, "other") },
  { name: "over an empty state: anything goes", file: (d) => ({ ...d, lineage: "third-lineage", serial: 2 }) },
];

(TERRAFORM !== undefined ? describe : describe.skip)("state push, against terraform's", () => {
  test("serials written, refusals and -force", async () => {
    const pair = await initialisedPair({ "main.tf": 'output "o" {\n  value = "v"\n}\n' });
    const env = { TF_CLI_CONFIG_FILE: pairCliConfig() };
    await Promise.all([runTool("magma", ["apply", "-no-color", "-auto-approve"], pair[0], {}), runTool("terraform", ["apply", "-no-color", "-auto-approve"], pair[1], env)]);
    const read = (dir: string): Doc => JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as Doc;
    let first = "";
    for (const step of STEPS) {
      const results = await Promise.all(
        pair.map(async (dir, i) => {
          let stored = read(dir);
          if (step.name.startsWith("over an empty state")) {
            // An empty state (no objects, no outputs) of its own lineage.
            stored = { ...stored, outputs: {}, lineage: "empty-lineage" };
            writeFileSync(join(dir, "terraform.tfstate"), JSON.stringify(stored, null, 2));
          }
          writeFileSync(join(dir, "pushed.tfstate"), JSON.stringify(step.file(stored), null, 2));
          const args = ["state", "push", "-no-color", ...(step.force === true ? ["-force"] : []), "pushed.tfstate"];
          const run = await runTool(i === 0 ? "magma" : "terraform", args, dir, i === 0 ? {} : env);
          const after = existsSync(join(dir, "terraform.tfstate")) ? read(dir) : undefined;
          const lineage = stored.lineage;
          const blank = (s: string): string => s.split(lineage).join("LINEAGE");
          return { step: step.name, code: run.code, stdout: run.stdout, stderr: blank(run.stderr), serial: after?.serial, lineage: after === undefined ? undefined : blank(after.lineage), outputs: Object.keys(after?.outputs ?? {}).sort() };
        }),
      );
      expect(results[0]).toEqual(results[1]);
      if (first === "") first = JSON.stringify(results[0]);
    }
    // The steps wrote something (not two runs that both did nothing).
    expect(first).toContain('"code":0');
  }, 300_000);
});
