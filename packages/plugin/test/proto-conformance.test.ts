/**
 * Checks magma's own .proto files (@magma/tfplugin's proto/, generated into its
 * src/gen/) against the descriptors of real binaries:
 *
 * - the raw FileDescriptorProtos embedded in the `terraform` binary (protocols 5.8/6.8
 *   for terraform 1.11, plus go-plugin's, health and reflection files);
 * - the descriptors a live AWS provider serves through gRPC reflection (protocol 5.8).
 *
 * Every message, field (number, name, type, label, presence, oneof), enum value and
 * service method the binaries have must exist in ours and agree. Types that only differ
 * by name but have an identical wire shape are reported, not failed.
 */
import { readFileSync } from "node:fs";
import { create, createFileRegistry, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  file_google_protobuf_empty,
  file_google_protobuf_timestamp,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { Health, HealthCheckResponse_ServingStatus, grpcBrokerPb, grpcControllerPb, grpcStdioPb, healthPb, reflectionPb, tfplugin5, tfplugin6 } from "@magma/tfplugin";
import {
  compareDescriptors,
  extractEmbeddedDescriptor,
  type ConformanceReport,
} from "./support/descriptors.js";
import {
  fetchDescriptorsByReflection,
  launchPlaintextPlugin,
  listServices,
  type PlaintextPlugin,
} from "./support/plaintext-plugin.js";
import { AWS_BINARY, findTerraform, hasAwsProvider, hasTerraform } from "@magma/test-support";

// MAGMA_AWS_PROVIDER was this file's own override; MAGMA_AWS_PROVIDER_BINARY (test-support) is the shared one.
const AWS_PROVIDER = process.env["MAGMA_AWS_PROVIDER"] ?? AWS_BINARY;

const TERRAFORM = findTerraform();

/** All of magma's descriptor files, plus the well-known types they import. */
const OURS: readonly FileDescriptorProto[] = [
  file_google_protobuf_timestamp.proto,
  file_google_protobuf_empty.proto,
  tfplugin5.file_tfplugin5_tfplugin5.proto,
  tfplugin6.file_tfplugin6_tfplugin6.proto,
  grpcBrokerPb.file_plugin_grpc_broker.proto,
  grpcControllerPb.file_plugin_grpc_controller.proto,
  grpcStdioPb.file_plugin_grpc_stdio.proto,
  healthPb.file_grpc_health_v1_health.proto,
  reflectionPb.file_grpc_reflection_v1_reflection.proto,
];

/** Prints what a comparison found besides problems, so renames are visible in test logs. */
function logReport(title: string, report: ConformanceReport): void {
  const lines = [
    `${title}: checked ${report.checked.messages} messages, ${report.checked.fields} fields, ` +
      `${report.checked.enums} enums, ${report.checked.methods} methods`,
  ];
  if (report.renamed.length > 0) lines.push(`  renamed, same wire shape: ${report.renamed.join("; ")}`);
  if (report.onlyOurs.length > 0) lines.push(`  only in ours (newer minors): ${report.onlyOurs.length} items`);
  if (report.problems.length > 0) lines.push(`  PROBLEMS:\n    ${report.problems.join("\n    ")}`);
  console.info(lines.join("\n"));
}

function clone(file: FileDescriptorProto): FileDescriptorProto {
  return fromBinary(FileDescriptorProtoSchema, toBinary(FileDescriptorProtoSchema, file));
}

function nested(file: FileDescriptorProto, path: readonly string[]) {
  const [top, ...rest] = path;
  let message = file.messageType.find((m) => m.name === top);
  for (const name of rest) message = message?.nestedType.find((m) => m.name === name);
  if (message === undefined) throw new Error(`no message ${path.join(".")} in ${file.name}`);
  return message;
}

describe("generated protocol descriptors", () => {
  test("tfplugin5 declares 28 Provider and 4 Provisioner methods; tfplugin6 declares 36", () => {
    const services5 = Object.fromEntries(tfplugin5.file_tfplugin5_tfplugin5.services.map((s) => [s.typeName, s.methods.length]));
    expect(services5).toEqual({ "tfplugin5.Provider": 28, "tfplugin5.Provisioner": 4 });
    const services6 = Object.fromEntries(tfplugin6.file_tfplugin6_tfplugin6.services.map((s) => [s.typeName, s.methods.length]));
    expect(services6).toEqual({ "tfplugin6.Provider": 36 });
    expect(tfplugin5.Provider.method.planResourceChange.name).toBe("PlanResourceChange");
    expect(tfplugin6.Provider.method.planResourceChange.input.typeName).toBe("tfplugin6.PlanResourceChange.Request");
  });

  test("carry the 5.10/6.11 facts of the protocol tables", () => {
    const field = (file: FileDescriptorProto, path: string[], name: string) =>
      nested(file, path).field.find((f) => f.name === name)?.number;
    const v5 = tfplugin5.file_tfplugin5_tfplugin5.proto;
    const v6 = tfplugin6.file_tfplugin6_tfplugin6.proto;
    expect(field(v5, ["Schema", "Attribute"], "deprecation_message")).toBe(11);
    expect(field(v6, ["Schema", "Attribute"], "deprecation_message")).toBe(12);
    expect(field(v6, ["Schema", "Attribute"], "nested_type")).toBe(10);
    expect(field(v6, ["Schema", "Block"], "computed")).toBe(8);
    expect(field(v6, ["ClientCapabilities"], "computed_blocks_allowed")).toBe(4);
    expect(field(v6, ["PlanResourceChange", "Request"], "planned_private")).toBe(9);
    expect(field(v5, ["PlanResourceChange", "Request"], "planned_private")).toBeUndefined();
    expect(field(v5, ["GetMetadata", "Response"], "actions")).toBe(8);
    expect(field(v6, ["GetMetadata", "Response"], "actions")).toBe(9);
    expect(field(v6, ["GetProviderSchema", "Response"], "state_store_schemas")).toBe(10);
    expect(field(v5, ["GetProviderSchema", "Response"], "action_schemas")).toBe(11);
    expect(nested(v5, ["GetProviderSchema", "Response"]).reservedRange.map((r) => [r.start, r.end])).toEqual([[10, 11]]);
    expect(field(v6, ["ValidateProviderConfig", "Response"], "diagnostics")).toBe(2);
  });
});

describe("compareDescriptors", () => {
  const ours = [file_google_protobuf_timestamp.proto, tfplugin5.file_tfplugin5_tfplugin5.proto];

  test("finds no problem when a descriptor is compared with itself", () => {
    const report = compareDescriptors(ours, ours);
    expect(report.problems).toEqual([]);
    expect(report.renamed).toEqual([]);
    expect(report.checked.methods).toBe(32);
  });

  test("reports a changed field number, type or label", () => {
    const theirs = clone(tfplugin5.file_tfplugin5_tfplugin5.proto);
    const request = nested(theirs, ["PlanResourceChange", "Request"]);
    const priorPrivate = request.field.find((f) => f.name === "prior_private");
    const config = request.field.find((f) => f.name === "config");
    const typeName = request.field.find((f) => f.name === "type_name");
    if (priorPrivate === undefined || config === undefined || typeName === undefined) throw new Error("fixture");
    priorPrivate.number = 15;
    config.label = FieldDescriptorProto_Label.REPEATED;
    typeName.type = FieldDescriptorProto_Type.BYTES;
    const report = compareDescriptors([file_google_protobuf_timestamp.proto, theirs], ours);
    expect(report.problems).toEqual([
      "tfplugin5.PlanResourceChange.Request: field 1: type BYTES vs ours STRING",
      "tfplugin5.PlanResourceChange.Request: field 4: label REPEATED vs ours OPTIONAL",
      "tfplugin5.PlanResourceChange.Request: field prior_private = 15 is missing in ours",
    ]);
  });

  test("reports a missing method, a changed request type and a streaming mismatch", () => {
    const theirs = clone(tfplugin5.file_tfplugin5_tfplugin5.proto);
    const provider = theirs.service.find((s) => s.name === "Provider");
    if (provider === undefined) throw new Error("fixture");
    const stop = provider.method.find((m) => m.name === "Stop");
    const read = provider.method.find((m) => m.name === "ReadResource");
    const list = provider.method.find((m) => m.name === "ListResource");
    if (stop === undefined || read === undefined || list === undefined) throw new Error("fixture");
    stop.name = "Halt";
    read.inputType = ".tfplugin5.ReadDataSource.Request";
    list.serverStreaming = false;
    const report = compareDescriptors([file_google_protobuf_timestamp.proto, theirs], ours);
    expect(report.problems).toEqual([
      "tfplugin5.Provider/ReadResource: input tfplugin5.ReadDataSource.Request vs ours tfplugin5.ReadResource.Request",
      "tfplugin5.Provider/ListResource: streaming differs",
      "tfplugin5.Provider/Halt is missing in ours",
    ]);
  });

  test("accepts a renamed nested message of identical shape, and rejects one whose shape differs", () => {
    const rename = (file: FileDescriptorProto) => {
      const metadata = nested(file, ["GetMetadata"]);
      const ephemeral = metadata.nestedType.find((m) => m.name === "EphemeralMetadata");
      const field = nested(file, ["GetMetadata", "Response"]).field.find((f) => f.name === "ephemeral_resources");
      if (ephemeral === undefined || field === undefined) throw new Error("fixture");
      ephemeral.name = "EphemeralResourceMetadata";
      field.typeName = ".tfplugin5.GetMetadata.EphemeralResourceMetadata";
      return ephemeral;
    };
    const same = clone(tfplugin5.file_tfplugin5_tfplugin5.proto);
    rename(same);
    const ok = compareDescriptors([file_google_protobuf_timestamp.proto, same], ours);
    expect(ok.problems).toEqual([]);
    expect(ok.renamed).toEqual(["tfplugin5.GetMetadata.EphemeralResourceMetadata -> tfplugin5.GetMetadata.EphemeralMetadata"]);

    const different = clone(tfplugin5.file_tfplugin5_tfplugin5.proto);
    const renamed = rename(different);
    const typeName = renamed.field[0];
    if (typeName === undefined) throw new Error("fixture");
    typeName.number = 2;
    const bad = compareDescriptors([file_google_protobuf_timestamp.proto, different], ours);
    expect(bad.problems).toEqual([
      "tfplugin5.GetMetadata.Response: field 6: type tfplugin5.GetMetadata.EphemeralResourceMetadata vs ours " +
        "tfplugin5.GetMetadata.EphemeralMetadata (different wire shape)",
      "type tfplugin5.GetMetadata.EphemeralResourceMetadata is missing in ours",
    ]);
  });
});

const describeTerraform = hasTerraform() ? describe : describe.skip;

describeTerraform("descriptors embedded in the terraform binary", () => {
  let binary: Uint8Array | undefined;
  const terraformBinary = (): Uint8Array => {
    if (binary === undefined) binary = readFileSync(TERRAFORM ?? "");
    return binary;
  };

  afterAll(() => {
    binary = undefined;
  });

  test("tfplugin6.proto (6.8, 20 Provider methods) agrees with ours", () => {
    const found = extractEmbeddedDescriptor(terraformBinary(), "tfplugin6.proto", "Provider");
    expect(found.file.package).toBe("tfplugin6");
    expect(found.file.syntax).toBe("proto3");
    expect(found.file.service.map((s) => [s.name, s.method.length])).toEqual([["Provider", 20]]);
    // 6.8 still lacks the identity RPCs that 6.9 added.
    expect(found.file.service[0]?.method.some((m) => m.name === "GetResourceIdentitySchemas")).toBe(false);
    const theirs = [file_google_protobuf_timestamp.proto, found.file];
    const report = compareDescriptors(theirs, OURS);
    logReport("terraform tfplugin6.proto", report);
    expect(report.problems).toEqual([]);
    expect(report.checked.methods).toBe(20);
  });

  test("tfplugin5.proto (5.8, 20 Provider + 4 Provisioner methods) agrees with ours", () => {
    const found = extractEmbeddedDescriptor(terraformBinary(), "tfplugin5.proto", "Provider");
    expect(found.file.package).toBe("tfplugin5");
    expect(found.file.service.map((s) => [s.name, s.method.length])).toEqual([
      ["Provider", 20],
      ["Provisioner", 4],
    ]);
    const report = compareDescriptors([file_google_protobuf_timestamp.proto, found.file], OURS);
    logReport("terraform tfplugin5.proto", report);
    expect(report.problems).toEqual([]);
    expect(report.checked.methods).toBe(24);
  });

  test.each([
    ["internal/plugin/grpc_controller.proto", "GRPCController"],
    ["internal/plugin/grpc_stdio.proto", "GRPCStdio"],
    ["internal/plugin/grpc_broker.proto", "GRPCBroker"],
    ["grpc/health/v1/health.proto", "Health"],
    ["grpc/reflection/v1/reflection.proto", "ServerReflection"],
  ])("%s agrees with ours", (fileName, service) => {
    const found = extractEmbeddedDescriptor(terraformBinary(), fileName, service);
    const deps = found.file.dependency.map((d) => extractEmbeddedDescriptor(terraformBinary(), d).file);
    const report = compareDescriptors([...deps, found.file], OURS);
    logReport(`terraform ${fileName}`, report);
    expect(report.problems).toEqual([]);
    expect(report.checked.methods).toBeGreaterThan(0);
  });
});

const describeAws = process.env["MAGMA_AWS_PROVIDER"] !== undefined || hasAwsProvider() ? describe : describe.skip;

describeAws("descriptors served by the live AWS provider through gRPC reflection", () => {
  let plugin: PlaintextPlugin | undefined;
  let theirs: FileDescriptorProto[] = [];

  beforeAll(async () => {
    plugin = await launchPlaintextPlugin(AWS_PROVIDER, { protocolVersions: "5" });
    theirs = await fetchDescriptorsByReflection(plugin.transport, [
      "tfplugin5.Provider",
      "plugin.GRPCController",
      "plugin.GRPCStdio",
      "plugin.GRPCBroker",
      "grpc.health.v1.Health",
      "grpc.reflection.v1.ServerReflection",
    ]);
  }, 120_000);

  afterAll(async () => {
    await plugin?.stop();
  }, 30_000);

  const live = (): PlaintextPlugin => {
    if (plugin === undefined) throw new Error("the provider was not launched");
    return plugin;
  };

  test("handshake is plaintext protocol 5 over a unix socket", () => {
    expect(live().handshake).toMatch(/^1\|5\|unix\|\/.+\|grpc\|$/);
  });

  test("lists the services go-plugin registers", async () => {
    const services = await listServices(live().transport);
    expect(services).toEqual(
      expect.arrayContaining([
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "plugin.GRPCBroker",
        "plugin.GRPCController",
        "plugin.GRPCStdio",
        "tfplugin5.Provider",
      ]),
    );
  });

  test("the reflected files form a consistent registry", () => {
    const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: theirs }));
    expect(registry.getService("tfplugin5.Provider")?.methods.length).toBe(20);
    expect(registry.getFile("tfplugin5.proto")?.dependencies.map((d) => d.proto.name)).toEqual([
      "google/protobuf/timestamp.proto",
    ]);
  });

  test("tfplugin5 agrees with ours; EphemeralResourceMetadata is only a rename", () => {
    const report = compareDescriptors(
      theirs.filter((f) => f.package === "tfplugin5" || f.package === "google.protobuf"),
      OURS,
    );
    logReport("aws reflection tfplugin5.proto", report);
    expect(report.problems).toEqual([]);
    expect(report.renamed).toContain(
      "tfplugin5.GetMetadata.EphemeralResourceMetadata -> tfplugin5.GetMetadata.EphemeralMetadata",
    );
    expect(report.checked.methods).toBe(24);
  });

  test("go-plugin, health and reflection files agree with ours", () => {
    const report = compareDescriptors(
      theirs.filter((f) => f.package !== "tfplugin5"),
      OURS,
    );
    logReport("aws reflection go-plugin/health/reflection", report);
    expect(report.problems).toEqual([]);
    // Shutdown, StreamStdio, StartStream, Check/List/Watch, ServerReflectionInfo.
    expect(report.checked.methods).toBe(7);
  });

  test("our generated clients talk to the live provider", async () => {
    const health = await createClient(Health, live().transport).check({ service: "plugin" });
    expect(health.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    const metadata = await createClient(tfplugin5.Provider, live().transport).getMetadata({});
    expect(metadata.diagnostics).toEqual([]);
    expect(metadata.resources.map((r) => r.typeName)).toContain("aws_vpc");
    expect(metadata.dataSources.length).toBeGreaterThan(100);
    expect(metadata.serverCapabilities?.getProviderSchemaOptional).toBe(true);
  }, 60_000);
});
