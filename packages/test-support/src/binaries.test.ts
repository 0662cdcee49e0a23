import {
  AWS_BINARY,
  binariesRequired,
  findAwsProvider,
  findTerraform,
  hasTerraform,
  MissingBinaryError,
} from "./binaries.js";

function withEnv(vars: Record<string, string | undefined>, fn: () => void): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  try {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

// The preflight: where `.ci/run` sets MAGMA_REQUIRE_BINARIES=1, a machine without terraform or
// the AWS binary fails here (and in every suite that asks), instead of skipping those suites.
(binariesRequired() ? test : test.skip)(
  "preflight: terraform and the hashicorp/aws binary are present",
  () => {
    expect({
      terraform: findTerraform() ?? "missing",
      aws: findAwsProvider() ?? `missing (${AWS_BINARY})`,
    }).toEqual({
      terraform: expect.not.stringMatching(/^missing/) as unknown,
      aws: AWS_BINARY,
    });
  },
);

test("an absent terraform skips, or fails with missing_binary when binaries are required", () => {
  withEnv({ MAGMA_TERRAFORM: "/nonexistent/terraform", MAGMA_REQUIRE_BINARIES: undefined }, () => {
    expect(findTerraform()).toBeUndefined();
    expect(hasTerraform()).toBe(false);
  });
  withEnv({ MAGMA_TERRAFORM: "/nonexistent/terraform", MAGMA_REQUIRE_BINARIES: "1" }, () => {
    let error: unknown;
    try {
      hasTerraform();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MissingBinaryError);
    expect(error).toMatchObject({ code: "missing_binary", binary: "terraform" });
    expect(String(error)).toContain("/nonexistent/terraform");
  });
});

test("MAGMA_TERRAFORM names the executable when it is one", () => {
  withEnv({ MAGMA_TERRAFORM: process.execPath }, () => {
    expect(findTerraform()).toBe(process.execPath);
  });
});
