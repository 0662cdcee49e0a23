/**
 * Issue 14, defect 5: a `plugin_exited` error carried the provider's debug log tail, with an
 * HTTP request body holding a SecureString value and the access key id, printed by
 * `console.error(err)` and `JSON.stringify(err)`. hashicorp/aws runs with TF_LOG=DEBUG
 * against fake-aws, writes a SecureString, and is SIGKILLed during a later call.
 */
import { inspect } from "node:util";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { nullVal } from "@magma/cty";
import { configValue, isProviderError, proposedNewState, type AnyProviderError } from "@magma/provider-api";
import { dialConfiguredProvider, type LiveProvider } from "../src/dial-provider.js";
import type { PluginLogEntry } from "../src/plugin-logger.js";
import { AWS_BINARY, AWS_OFFLINE_CONFIG, hasAwsProvider } from "@magma/test-support";

const d = hasAwsProvider() ? describe : describe.skip;
const LONG = 180_000;
const SECURE_VALUE = "HUNTER2-SECRET-VALUE-31337";
const ACCESS_KEY = "AKIAIOSFODNN7MAGMA01";
const SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYMAGMAKEY01";
const SECRETS = [SECURE_VALUE, ACCESS_KEY, SECRET_KEY];

d("crash errors hold no secret (hashicorp/aws with TF_LOG=DEBUG, fake-aws)", () => {
  let fake: FakeAws;
  let live: LiveProvider | undefined;
  const logged: string[] = [];

  beforeAll(async () => {
    fake = await startFakeAws();
  }, LONG);

  afterAll(async () => {
    await live?.close();
    await fake?.close();
  });

  test(
    "SIGKILL after a SecureString was written: String(err), JSON.stringify(err) and detail.stderrTail hold no secret; the logger still gets the full log",
    async () => {
      live = await dialConfiguredProvider({
        binary: AWS_BINARY,
        env: { ...process.env, TF_LOG: "DEBUG" },
        logger: { log: (e: PluginLogEntry) => logged.push(`${e.message} ${JSON.stringify(e.fields)}`) },
        config: { ...AWS_OFFLINE_CONFIG, access_key: ACCESS_KEY, secret_key: SECRET_KEY, max_retries: 1, endpoints: [{ ssm: fake.url, sts: fake.url }] },
      });
      const res = live.schema.resources.get("aws_ssm_parameter")!;
      const config = configValue(res.block, { name: "/magma/secure", type: "SecureString", value: SECURE_VALUE });
      const prior = nullVal(res.type);
      const plan = await live.provider.planResourceChange("aws_ssm_parameter", prior, proposedNewState(res.block, prior, config), config);
      await live.provider.applyResourceChange("aws_ssm_parameter", prior, plan.plannedState, config, { plannedPrivate: plan.plannedPrivate });
      expect(fake.state().ssmParameters.find((p) => p.name === "/magma/secure")?.value).toBe(SECURE_VALUE);

      const slow = fake.inject({ action: "GetParameter", delayMs: 10_000 });
      const data = live.schema.dataSources.get("aws_ssm_parameter")!;
      const call = live.provider.readDataSource("aws_ssm_parameter", configValue(data.block, { name: "/magma/secure" })).then(
        () => undefined,
        (e: unknown) => e,
      );
      const end = Date.now() + 60_000;
      while (slow.seen < 1 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      process.kill(live.pid!, "SIGKILL");
      const e = (await call) as AnyProviderError;
      expect(isProviderError(e) && e.code).toBe("plugin_exited");

      // The scenario is real: the provider's debug log (to the logger) held the secret value.
      expect(logged.join("\n")).toContain(SECURE_VALUE);

      const detail = e.detail as Readonly<Record<string, unknown>>;
      const shown = [String(e), e.message, JSON.stringify(e), inspect(e, { depth: 10 }), String(detail["stderrTail"] ?? ""), String(detail["panicExcerpt"] ?? "")];
      for (const text of shown) for (const secret of SECRETS) expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
      // What the tail keeps: no DEBUG lines (where the SDK logs requests and bodies).
      expect(String(detail["stderrTail"])).not.toMatch(/"@level":"debug"|\[DEBUG\]/);
    },
    LONG,
  );
});
