import { startHttpStateServer, type HttpStateServer } from "@magma/test-support";
import { stringType, stringVal } from "@magma/cty";
import { createHttpBackend } from "./http.js";
import { encodeOutput } from "../output-value.js";
import { loadState, saveState, withStateLock } from "../persist-state.js";
import { newStateFile } from "../state-file.js";

let server: HttpStateServer;
beforeEach(async () => {
  server = await startHttpStateServer();
});
afterEach(async () => {
  await server.close();
});

const backendAt = (path: string, extra: Parameters<typeof createHttpBackend>[0] = {}): ReturnType<typeof createHttpBackend> =>
  createHttpBackend({ address: `${server.url}${path}`, lockAddress: `${server.url}${path}`, unlockAddress: `${server.url}${path}`, retryWaitMin: 0, env: {}, ...extra });

describe("the http backend", () => {
  test("reads nothing, then writes and reads back a state under its lock, with ?ID= while locked", async () => {
    const store = backendAt("/s").store("default");
    expect(await store.read()).toBeUndefined();
    await withStateLock(store, { operation: "OperationTypeApply" }, async () => {
      const state = newStateFile();
      state.outputs.set("o", encodeOutput(stringVal("x"), stringType));
      await saveState(store, state);
    });
    const back = await loadState(store);
    expect(back?.outputs.get("o")?.valueJson).toBe('"x"');
    const post = server.requests.find((r) => r.method === "POST")!;
    expect(post.url).toMatch(/^\/s\?ID=[0-9a-f-]{36}$/);
    expect(server.locks.size).toBe(0);
  });

  test("a held lock blocks another holder, naming it; force-unlock releases it", async () => {
    const a = backendAt("/s").store("default");
    const b = backendAt("/s").store("default");
    const id = await a.lock({ operation: "OperationTypeApply" });
    await expect(b.lock({ operation: "OperationTypePlan" })).rejects.toMatchObject({ code: "locked", message: `[locked] HTTP remote state already locked: ID=${id}`, detail: { id, operation: "OperationTypeApply" } });
    await b.forceUnlock(id);
    expect(await b.lock({ operation: "OperationTypePlan" })).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("without a lock address nothing is locked", async () => {
    const store = createHttpBackend({ address: `${server.url}/s`, env: {} }).store("default");
    expect(await store.lock({ operation: "OperationTypeApply" })).toBe("");
    expect(server.requests).toHaveLength(0);
  });

  test("basic auth: none is 'requires auth', a wrong one 'invalid auth', the right one reads", async () => {
    await server.close();
    server = await startHttpStateServer({ auth: { username: "u", password: "p" } });
    await expect(backendAt("/s").store("default").read()).rejects.toMatchObject({ code: "io", message: "[io] HTTP remote state endpoint requires auth" });
    await expect(backendAt("/s", { username: "u", password: "no" }).store("default").read()).rejects.toMatchObject({ message: "[io] HTTP remote state endpoint invalid auth" });
    expect(await backendAt("/s", { username: "u", password: "p" }).store("default").read()).toBeUndefined();
  });

  test("retries 5xx and dropped connections retry_max times, then gives up as go-retryablehttp words it", async () => {
    server.faults.push({ match: /^GET /, status: 502, times: 2 });
    expect(await backendAt("/s").store("default").read()).toBeUndefined();
    expect(server.requests.filter((r) => r.method === "GET")).toHaveLength(3);
    server.faults.push({ match: /^POST /, status: 0, times: 5 });
    await expect(backendAt("/s", { retryMax: 1 }).store("default").write(new TextEncoder().encode("{}"))).rejects.toMatchObject({
      code: "io",
      message: expect.stringMatching(new RegExp(`^\\[io\\] Failed to upload state: POST ${server.url}/s giving up after 2 attempt\\(s\\): `)),
    });
    expect(server.states.size).toBe(0);
  });

  test("a write the server refuses is a typed error and the stored state stays", async () => {
    const store = backendAt("/s").store("default");
    await store.write(new TextEncoder().encode('{"a":1}'));
    server.faults.push({ match: /^POST /, status: 400, times: 1 });
    await expect(store.write(new TextEncoder().encode('{"a":2}'))).rejects.toMatchObject({ code: "io", message: "[io] HTTP error: 400" });
    expect(server.states.get("/s")?.toString()).toBe('{"a":1}');
  });

  test("bad settings and other workspaces are refused as terraform refuses them", () => {
    expect(() => createHttpBackend({ env: {} })).toThrow("address argument is required");
    expect(() => createHttpBackend({ address: "ftp://x/", env: {} })).toThrow("address must be HTTP or HTTPS");
    expect(() => createHttpBackend({ address: "http://x/", lockAddress: "file:///x", env: {} })).toThrow("lock_address must be HTTP or HTTPS");
    expect(() => createHttpBackend({ address: "http://x/", clientCertificatePem: "c", env: {} })).toThrow("client_certificate_pem is set but client_private_key_pem is not");
    expect(createHttpBackend({ env: { TF_HTTP_ADDRESS: "http://x/" } }).kind).toBe("http");
    expect(() => createHttpBackend({ address: "http://x/", env: {} }).store("dev")).toThrow("workspaces not supported");
  });
});
