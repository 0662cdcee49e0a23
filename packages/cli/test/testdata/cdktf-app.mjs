// A CDKTF app (the TypeScript a CDKTF user writes, here as plain ESM): one stack with the
// prebuilt hashicorp/random bindings. `synth(outdir)` writes cdktf.out's layout
// (<outdir>/stacks/hello/cdk.tf.json) as `cdktf synth` does, without the cdktf CLI.
import { App, TerraformOutput, TerraformStack } from "cdktf";
import { provider, id, password, stringResource } from "@cdktf/provider-random";

class HelloStack extends TerraformStack {
  constructor(scope, name) {
    super(scope, name);
    new provider.RandomProvider(this, "random");
    const suffix = new id.Id(this, "suffix", { byteLength: 3 });
    const names = [0, 1].map((i) => new stringResource.StringResource(this, `name${i}`, { length: 6, upper: false, special: false, keepers: { suffix: suffix.hex } }));
    const token = new password.Password(this, "token", { length: 20 });
    new TerraformOutput(this, "names_out", { value: names.map((n) => `${n.result}-${suffix.hex}`) });
    new TerraformOutput(this, "token_out", { value: token.result, sensitive: true });
  }
}

/** Synthesizes the app into `outdir`; returns the stack's directory. */
export function synth(outdir) {
  const app = new App({ outdir });
  new HelloStack(app, "hello");
  app.synth();
  return `${outdir}/stacks/hello`;
}
