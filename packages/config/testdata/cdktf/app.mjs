// A small CDK for Terraform app: `node app.mjs <outdir>` synthesizes
// <outdir>/stacks/pets/cdk.tf.json. The test runs it and compares with cdk.tf.json here.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { App, Fn, LocalBackend, TerraformIterator, TerraformOutput, TerraformStack, TerraformVariable } = require("cdktf");
const { RandomProvider } = require("@cdktf/provider-random/lib/provider");
const { Pet } = require("@cdktf/provider-random/lib/pet");
const { StringResource } = require("@cdktf/provider-random/lib/string-resource");

class Pets extends TerraformStack {
  constructor(scope, id) {
    super(scope, id);
    new LocalBackend(this, { path: "terraform.pets.tfstate" });
    new RandomProvider(this, "random", {});
    new RandomProvider(this, "random_west", { alias: "west" });

    const prefix = new TerraformVariable(this, "prefix", { type: "string", default: "pet", description: "Name prefix." });
    const names = new TerraformVariable(this, "names", { type: "set(string)", default: ["a", "b"] });

    const first = new Pet(this, "first", { length: 2, prefix: prefix.stringValue, lifecycle: { createBeforeDestroy: true } });

    const it = TerraformIterator.fromList(names.listValue);
    const each = new Pet(this, "each", { forEach: it, prefix: it.value, separator: "-", dependsOn: [first] });

    const suffix = new StringResource(this, "suffix", {
      length: 8,
      special: false,
      keepers: { pet: first.id },
      provider: undefined,
    });
    suffix.addOverride("count", 2);
    suffix.addOverride("provider", "random.west");

    new TerraformOutput(this, "joined", { value: Fn.join(",", [first.id, Fn.upper(prefix.stringValue)]) });
    new TerraformOutput(this, "each_ids", { value: each.fqn, sensitive: false });
  }
}

const app = new App({ outdir: process.argv[2] ?? "cdktf.out" });
new Pets(app, "pets");
app.synth();
