// The baseline of the per-call benchmark: the generated tfplugin5/6 service called through a
// bare @connectrpc/connect client with a pre-built request (pre-encoded DynamicValues): no
// schema, no cty, no validation. It runs over the very transport (provider process, AutoMTLS
// unix socket, HTTP/2 session) that magma's ProviderConn uses, so the two differ only in the
// client: separate provider processes alone made single measurements differ by up to ±15 %.
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { tfplugin5 as v5, tfplugin6 as v6 } from "@magma/tfplugin";

/**
 * Returns `readDataSource()`, which sends one pre-built ReadDataSource request over
 * `transport` (a provider of protocol `version`, already configured) and checks the answer.
 */
export function bareReadDataSource(transport, version, { typeName, dataConfigMsgpack, providerMetaMsgpack }) {
  const gen = version === 5 ? v5 : v6;
  const client = createClient(gen.Provider, transport);
  const request = create(gen.ReadDataSource_RequestSchema, {
    typeName,
    config: { msgpack: dataConfigMsgpack },
    clientCapabilities: { deferralAllowed: false, writeOnlyAttributesAllowed: true },
    ...(providerMetaMsgpack === undefined ? {} : { providerMeta: { msgpack: providerMetaMsgpack } }),
  });
  return async function readDataSource() {
    const r = await client.readDataSource(request);
    if (r.diagnostics.length > 0 || r.state === undefined) throw new Error("ReadDataSource failed");
    return r;
  };
}
