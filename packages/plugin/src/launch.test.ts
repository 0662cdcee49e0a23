import { buildPluginEnvironment, SDK_LOG_VARIABLES } from "./launch.js";

describe("buildPluginEnvironment", () => {
  const base = {
    PATH: "/usr/bin",
    HOME: "/root",
    TF_LOG_SDK: "trace",
    PLUGIN_CLIENT_CERT: "inherited",
    PLUGIN_MULTIPLEX_GRPC: "true",
    UNSET: undefined,
  };
  const settings = {
    base,
    protocolVersions: [5, 6],
    minPort: 10000,
    maxPort: 25000,
    socketDir: "/tmp/magma-plugin-x",
    clientCertPem: "-----BEGIN CERTIFICATE-----\n...",
    sdkLogs: false,
  };

  test("adds the go-plugin variables on top of the base environment", () => {
    const env = buildPluginEnvironment(settings);
    expect(env).toEqual({
      PATH: "/usr/bin",
      HOME: "/root",
      TF_PLUGIN_MAGIC_COOKIE: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
      PLUGIN_PROTOCOL_VERSIONS: "5,6",
      PLUGIN_MIN_PORT: "10000",
      PLUGIN_MAX_PORT: "25000",
      PLUGIN_UNIX_SOCKET_DIR: "/tmp/magma-plugin-x",
      PLUGIN_CLIENT_CERT: "-----BEGIN CERTIFICATE-----\n...",
      TF_LOG_SDK: "off",
      TF_LOG_SDK_PROTO: "off",
      TF_LOG_SDK_MUX: "off",
      TF_LOG_SDK_HELPER_SCHEMA: "off",
      TF_LOG_SDK_FRAMEWORK: "off",
    });
  });

  test("without AutoMTLS no client certificate is passed, not even an inherited one", () => {
    expect(buildPluginEnvironment({ ...settings, clientCertPem: undefined })).not.toHaveProperty("PLUGIN_CLIENT_CERT");
  });

  test("with SDK logs the inherited TF_LOG_SDK* values are left alone", () => {
    const env = buildPluginEnvironment({ ...settings, sdkLogs: true, protocolVersions: [6] });
    expect(env["TF_LOG_SDK"]).toBe("trace");
    for (const name of SDK_LOG_VARIABLES.slice(1)) expect(env).not.toHaveProperty(name);
    expect(env["PLUGIN_PROTOCOL_VERSIONS"]).toBe("6");
  });

  test("the default base is the host's process.env", () => {
    const env = buildPluginEnvironment({ ...settings, base: undefined as never });
    expect(env["PATH"]).toBe(process.env["PATH"]);
  });
});
