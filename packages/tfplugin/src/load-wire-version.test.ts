import { createRouterTransport } from "@connectrpc/connect";
import { loadWireVersion } from "./load-wire-version.js";
import { wireMessages } from "./wire-client.js";
import * as v5 from "./gen/tfplugin5/tfplugin5_pb.js";
import * as v6 from "./gen/tfplugin6/tfplugin6_pb.js";

test.each([5, 6] as const)("loadWireVersion(%i) gives that version's messages and a client of that version", async (version) => {
  const w = await loadWireVersion(version);
  expect(w.version).toBe(version);
  expect(w.messages.schemaMessage).toBe(wireMessages(version).schemaMessage);
  expect(w.messages.schemaMessage.typeName).toBe(`tfplugin${version}.Schema`);
  expect(await loadWireVersion(version)).toBe(w);
  const transport = createRouterTransport(({ service }) => {
    if (version === 5) service(v5.Provider, { stop: () => ({ Error: "v5 stop" }) });
    else service(v6.Provider, { stopProvider: () => ({ Error: "v6 stop" }) });
  });
  const client = w.createClient(transport);
  expect(client.version).toBe(version);
  expect(await client.stopProvider({})).toMatchObject({ Error: `v${version} stop` });
});
