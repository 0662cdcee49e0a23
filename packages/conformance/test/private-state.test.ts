// Conformance: private state round trips through magma exactly as Terraform routes it
// (protocol notes B4): plan's planned private reaches apply; apply's private is stored and
// reaches the next read (whose private replaces it); import's private reaches the read that
// follows the import; a replace's create plan gets the first plan's private (C5). The
// provider really reads those bytes: corrupt ones are refused. The private state magma
// stores is also compared with terraform's state file in lifecycle.test.ts.
import { hasAwsProvider } from "@magma/test-support";
import { nullVal } from "@magma/cty";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { isProviderError, type LiveProvider } from "@magma/plugin";
import { EngineDriver, PlanAction, RecordingProvider, dialAwsAgainst, type RecordedCall } from "../src/index.js";

const d = hasAwsProvider() ? describe : describe.skip;
const LONG = 300_000;
/** The key under which SDKv2 keeps resource timeouts in private state. */
const TIMEOUTS_KEY = "e2bfb730-ecaa-11e6-8f88-34363bc7c4c0";
const text = (b: Uint8Array | undefined): string => new TextDecoder().decode(b ?? new Uint8Array(0));
const json = (b: Uint8Array | undefined): Record<string, unknown> => JSON.parse(text(b)) as Record<string, unknown>;

d("private state round trip (hashicorp/aws 5.100.0, SDKv2 resources)", () => {
  let fake: FakeAws;
  let live: LiveProvider;
  let rec: RecordingProvider;
  let engine: EngineDriver;

  beforeAll(async () => {
    fake = await startFakeAws();
    live = await dialAwsAgainst(fake.url);
    rec = new RecordingProvider(live.provider);
    engine = new EngineDriver(rec, live.schema);
  }, LONG);

  afterAll(async () => {
    await live?.close();
    await fake?.close();
  });

  const last = (op: RecordedCall["operation"]): RecordedCall => {
    const c = rec.callsOf(op).at(-1);
    if (c === undefined) throw new Error(`no ${op} call recorded`);
    return c;
  };

  test(
    "plan → apply → read: the planned private (with configured timeouts) reaches apply, apply's private reaches read",
    async () => {
      rec.reset();
      const config = { domain: "vpc", tags: { Name: "private" }, timeouts: { read: "7m", delete: "2m" } };
      const plan = await engine.plan("aws_eip", null, config);
      const planned = json(plan.change?.plannedPrivate);
      expect(planned["_new_extra_shim"]).toEqual({});
      expect(planned[TIMEOUTS_KEY]).toMatchObject({ read: 420_000_000_000, delete: 120_000_000_000 });

      const obj = await engine.apply(plan);
      // The apply received exactly the private of the plan made just before it (the re-plan).
      const plans = rec.callsOf("planResourceChange");
      const apply = last("applyResourceChange");
      expect(apply.outcome).toBe("ok");
      expect(text(apply.sentPrivate)).toBe(text(plans.at(-1)?.returnedPrivate?.[0]));
      expect(text(apply.sentPrivate)).toBe(text(plan.change?.plannedPrivate));
      // What apply returned is what is stored: the timeouts survive, the create shim does not.
      expect(text(obj!.private)).toBe(text(apply.returnedPrivate?.[0]));
      expect(json(obj!.private)[TIMEOUTS_KEY]).toMatchObject({ read: 420_000_000_000, delete: 120_000_000_000 });
      expect(json(obj!.private)["_new_extra_shim"]).toBeUndefined();

      const refreshed = await engine.refresh(obj!);
      const read = last("readResource");
      expect(text(read.sentPrivate)).toBe(text(obj!.private));
      expect(read.returnedPrivate?.[0]?.length).toBeGreaterThan(0);
      expect(text(refreshed!.private)).toBe(text(read.returnedPrivate?.[0]));
      expect(json(refreshed!.private)[TIMEOUTS_KEY]).toMatchObject({ read: 420_000_000_000 });

      // The next plan starts from the private the read returned.
      await engine.plan("aws_eip", refreshed, config, { refresh: false });
      expect(text(last("planResourceChange").sentPrivate)).toBe(text(refreshed!.private));
      expect((await engine.converge("aws_eip", refreshed, null)).result).toBeNull();
      expect(fake.isEmpty()).toBe(true);
    },
    LONG,
  );

  test(
    "the provider reads the private bytes: a corrupt planned private fails the apply before anything is created, a corrupt stored private fails the read",
    async () => {
      const config = { domain: "vpc" };
      const cfg = engine.config("aws_eip", config);
      const plan = await engine.plan("aws_eip", null, config);
      fake.resetCalls();
      const corrupt = new TextEncoder().encode("{not json");
      const err: unknown = await live.provider.applyResourceChange("aws_eip", nullVal(engine.entry("aws_eip").type), plan.change!.plannedState, cfg, { plannedPrivate: corrupt }).then(
        () => new Error("the apply succeeded"),
        (e: unknown) => e,
      );
      if (!isProviderError(err) || err.code !== "diagnostics") throw err;
      expect(fake.callsOf("AllocateAddress")).toEqual([]);
      expect(fake.isEmpty()).toBe(true);

      const obj = await engine.apply(plan);
      const readErr: unknown = await live.provider.readResource("aws_eip", obj!.state, { private: corrupt }).then(
        () => new Error("the read succeeded"),
        (e: unknown) => e,
      );
      if (!isProviderError(readErr) || readErr.code !== "diagnostics") throw readErr;
      expect((await engine.converge("aws_eip", obj, null)).result).toBeNull();
      expect(fake.isEmpty()).toBe(true);
    },
    LONG,
  );

  test(
    "import → read: the import's private reaches the read, whose private is kept",
    async () => {
      const created = (await engine.converge("aws_ssm_parameter", null, { name: "/private/p", type: "String", value: "x" })).result!;
      rec.reset();
      const imported = await engine.import("aws_ssm_parameter", "/private/p");
      const imp = last("importResourceState");
      const read = last("readResource");
      expect(imp.returnedPrivate).toHaveLength(1);
      expect(json(imp.returnedPrivate?.[0])).toEqual({ schema_version: "0" });
      expect(text(read.sentPrivate)).toBe(text(imp.returnedPrivate?.[0]));
      expect(read.returnedPrivate?.[0]?.length).toBeGreaterThan(0);
      expect(text(imported.private)).toBe(text(read.returnedPrivate?.[0]));
      expect(imported.state.getAttr("id").asString()).toBe(created.state.getAttr("id").asString());
    },
    LONG,
  );

  test(
    "replace: the create plan gets the first plan's planned private as its prior private (C5)",
    async () => {
      const prior = await engine.import("aws_ssm_parameter", "/private/p");
      rec.reset();
      const plan = await engine.plan("aws_ssm_parameter", prior, { name: "/private/q", type: "String", value: "x" });
      expect(plan.action).toBe(PlanAction.Replace);
      const plans = rec.callsOf("planResourceChange");
      expect(plans.map((c) => c.priorNull)).toEqual([false, true]);
      expect(text(plans[1]?.sentPrivate)).toBe(text(plans[0]?.returnedPrivate?.[0]));
      expect(text(plans[0]?.sentPrivate)).toBe(text(last("readResource").returnedPrivate?.[0]));
      const result = await engine.apply(plan);
      expect(fake.state().ssmParameters.map((p) => p.name)).toEqual(["/private/q"]);
      expect((await engine.converge("aws_ssm_parameter", result, null)).result).toBeNull();
      expect(fake.isEmpty()).toBe(true);
    },
    LONG,
  );
});
