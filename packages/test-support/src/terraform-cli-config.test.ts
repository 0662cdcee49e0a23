import { terraformCliConfigText, terraformEnv } from "./terraform-cli-config.js";

test("the CLI configuration lists dev_overrides before the mirrors, include patterns quoted", () => {
  const text = terraformCliConfigText({
    devOverrides: { "example.com/magma/memory": "/tmp/x" },
    mirrors: [{ path: "/tmp/m", include: ["example.com/*/*"] }, { path: "/opt/tf-plugins" }],
  });
  expect(text).toBe(
    `provider_installation {
  dev_overrides {
    "example.com/magma/memory" = "/tmp/x"
  }
  filesystem_mirror {
    path    = "/tmp/m"
    include = ["example.com/*/*"]
  }
  filesystem_mirror {
    path    = "/opt/tf-plugins"
  }
}
`,
  );
});

test("the child environment drops inherited terraform logging and reattach settings", () => {
  process.env["TF_REATTACH_PROVIDERS"] = "{}";
  try {
    const env = terraformEnv("/tmp/cli.tfrc", { TF_LOG: "debug", EXTRA: "1", HOME: undefined });
    expect(env["TF_CLI_CONFIG_FILE"]).toBe("/tmp/cli.tfrc");
    expect(env["TF_REATTACH_PROVIDERS"]).toBeUndefined();
    expect(env["TF_LOG"]).toBe("debug");
    expect(env["EXTRA"]).toBe("1");
    expect("HOME" in env).toBe(false);
  } finally {
    delete process.env["TF_REATTACH_PROVIDERS"];
  }
});

test("dev_overrides with direct installation for the rest", () => {
  expect(
    terraformCliConfigText({ devOverrides: { "example.com/magma/memory": "/d" }, direct: true }),
  ).toBe(
    `provider_installation {\n  dev_overrides {\n    "example.com/magma/memory" = "/d"\n  }\n  direct {}\n}\n`,
  );
});
