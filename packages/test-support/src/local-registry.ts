/**
 * A provider registry, a provider network mirror and a module registry served over HTTPS on
 * 127.0.0.1 for installation tests that never reach the internet: a certificate authority
 * and an OpenPGP signing key made for the run, release archives signed as a real registry
 * signs them, and faults to inject (a status, a hang, a truncated body, a redirect loop).
 * terraform and magma both trust the CA through `SSL_CERT_FILE` and reach the registry's
 * hostname through a CLI configuration `host` block, so no name has to resolve.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeZip, type ZipWriterEntry } from "./zip-writer.js";

/** A fault served instead of a path's normal answer. */
export type RegistryFault =
  /** Answer with this status (the first `times` requests only, when given). */
  | { readonly kind: "status"; readonly status: number; readonly times?: number }
  /** Accept the request and never answer. */
  | { readonly kind: "hang" }
  /** Announce the whole length, send half, close. */
  | { readonly kind: "truncate" }
  /**
   * The first `times` requests: announce the length of what was asked for (the file, or the
   * rest of it after a `Range`), send half of it, close; then the normal answer.
   */
  | { readonly kind: "cut"; readonly times: number }
  /** Redirect to itself forever. */
  | { readonly kind: "redirect_loop" }
  /** Answer 200 with this body instead. */
  | { readonly kind: "body"; readonly body: string | Uint8Array };

/** A provider release to publish. */
export interface RegistryRelease {
  readonly namespace: string;
  readonly type: string;
  readonly version: string;
  /** `<os>_<arch>` (default `linux_amd64`). */
  readonly platform?: string;
  /** The archive's files. */
  readonly files: readonly ZipWriterEntry[];
  /** Sign the checksum list with a key the registry does not name. */
  readonly signWithUnknownKey?: boolean;
  /** The registry's `shasum` differs from the archive's (the list still names the real one). */
  readonly wrongShasum?: boolean;
  /**
   * The signing key's `trust_signature`: `"stranger"` is a detached armored signature of the
   * key's bytes by a key that is not HashiCorp's partners key; any other text is sent as is.
   */
  readonly trustSignature?: string;
}

/** What {@link LocalRegistry.publish} made. */
export interface PublishedRelease {
  /** The archive. */
  readonly zip: Buffer;
  /** `zh:` hash of the archive. */
  readonly zh: string;
  /** `h1:` hash of the unpacked archive. */
  readonly h1: string;
  /** Its path on the server (`/dl/...zip`). */
  readonly path: string;
}

/** A module version to publish: its files, served as a tar.gz archive. */
export interface RegistryModule {
  readonly namespace: string;
  readonly name: string;
  readonly provider: string;
  readonly version: string;
  readonly files: Readonly<Record<string, string>>;
}

/** The running servers. */
export interface LocalRegistry {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** The provider hostname the `host` block maps to it. */
  readonly hostname: string;
  /** The CA certificate file (PEM) to trust. */
  readonly caFile: string;
  /** The signing key's ID (16 upper-case hex digits). */
  readonly keyId: string;
  /** Every request path, in order. */
  readonly requests: string[];
  /** Each request's `Authorization` header (`""` when absent), in the order of {@link requests}. */
  readonly authorizations: string[];
  /** Each request's `Range` header (`""` when absent), in the order of {@link requests}. */
  readonly ranges: string[];
  /** Publishes a release (zipped, added to the checksum list, signed). */
  publish(release: RegistryRelease): Promise<PublishedRelease>;
  /** Publishes a module version. */
  publishModule(module: RegistryModule): void;
  /** Serves `fault` for requests whose path matches. */
  fault(path: RegExp, fault: RegistryFault): void;
  /** Removes the faults. */
  clearFaults(): void;
  /**
   * A CLI configuration: the `host` block (and `extra` text). `mirror`: installation from
   * the network mirror only; otherwise direct.
   */
  cliConfig(options?: { readonly mirror?: boolean; readonly extra?: string }): string;
  /** The environment both tools need (`SSL_CERT_FILE`, `NODE_EXTRA_CA_CERTS`). */
  readonly env: Readonly<Record<string, string>>;
  /** Stops the server, drops hanging connections, removes the files. */
  close(): Promise<void>;
}

function makeCa(dir: string): { key: string; cert: string; caFile: string } {
  const run = (args: string[]): void => {
    execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
  };
  run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=magma test CA",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=localhost"]);
  writeFileSync(join(dir, "ext.cnf"), "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n");
  run(["x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "srv.pem", "-days", "2", "-extfile", "ext.cnf"]);
  return { key: readFileSync(join(dir, "srv.key"), "utf8"), cert: readFileSync(join(dir, "srv.pem"), "utf8"), caFile: join(dir, "ca.pem") };
}

/** A file's entity tag: its SHA-256, quoted. */
function etagOf(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
}

/** How to answer a request for `body`: 206 from byte N for `Range: bytes=N-` (N inside it, `If-Range` absent or the ETag), else 200 from 0. */
function rangeOf(req: IncomingMessage, body: Buffer): { status: 200 | 206; from: number } {
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
  const ifRange = req.headers["if-range"];
  if (m === null || (ifRange !== undefined && ifRange !== etagOf(body))) return { status: 200, from: 0 };
  const from = Number(m[1]);
  return from > 0 && from < body.length ? { status: 206, from } : { status: 200, from: 0 };
}

/** `h1:` of the directory a zip unpacks to (files by name, sorted), computed here independently of @magma/install. */
function h1Of(files: readonly ZipWriterEntry[]): string {
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sum = createHash("sha256");
  for (const f of sorted) sum.update(`${createHash("sha256").update(Buffer.from(f.data)).digest("hex")}  ${f.name}\n`);
  return `h1:${sum.digest("base64")}`;
}

/**
 * Starts the servers on a free port of 127.0.0.1 (needs `openssl` to make the certificates).
 * `hostname` is the provider/module hostname the CLI configuration maps to them (default
 * `registry.magma.test`).
 */
export async function startLocalRegistry(hostname = "registry.magma.test"): Promise<LocalRegistry> {
  const openpgp = await import("openpgp");
  const dir = mkdtempSync(join(tmpdir(), "magma-registry-"));
  const { key, cert, caFile } = makeCa(dir);
  const gen = async (): Promise<{ priv: Awaited<ReturnType<typeof openpgp.readPrivateKey>>; armored: string; id: string; body: Uint8Array }> => {
    const k = await openpgp.generateKey({ type: "ecc", curve: "curve25519Legacy", userIDs: [{ name: "magma test", email: "test@magma.invalid" }], format: "object" });
    return { priv: k.privateKey, armored: k.publicKey.armor(), id: k.publicKey.getKeyID().toHex().toUpperCase(), body: k.publicKey.write() };
  };
  const signer = await gen();
  const stranger = await gen();
  const files = new Map<string, { body: Buffer; type: string }>();
  const providers = new Map<string, Map<string, Set<string>>>(); // ns/type → version → platforms
  const downloads = new Map<string, { filename: string; shasum: string; sums: string; sig: string; h1: string; trust: string }>(); // ns/type/version/platform
  const modules = new Map<string, Map<string, string>>(); // ns/name/provider → version → archive path
  const faults: { path: RegExp; fault: RegistryFault; served: number }[] = [];
  const requests: string[] = [];
  const authorizations: string[] = [];
  const ranges: string[] = [];
  const sockets = new Set<Socket>();
  let base = "";

  const send = (res: ServerResponse, status: number, body: string | Buffer, type = "application/json"): void => {
    res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? "/").split("?")[0]!;
    requests.push(path);
    authorizations.push(req.headers.authorization ?? "");
    ranges.push(req.headers.range ?? "");
    const found = faults.find((x) => x.path.test(path) && x.served < (("times" in x.fault ? x.fault.times : undefined) ?? Infinity));
    const f = found?.fault;
    if (found !== undefined && f !== undefined) {
      found.served++;
      if (f.kind === "cut") {
        const whole = files.get(path)?.body ?? Buffer.alloc(1024, 1);
        const { status, from } = rangeOf(req, whole);
        const rest = whole.subarray(from);
        res.writeHead(status, { "Content-Type": "application/octet-stream", "Content-Length": rest.length, ETag: etagOf(whole), ...(status === 206 ? { "Content-Range": `bytes ${from}-${whole.length - 1}/${whole.length}` } : {}) });
        res.write(rest.subarray(0, Math.floor(rest.length / 2)));
        setTimeout(() => res.destroy(), 50);
        return;
      }
      if (f.kind === "hang") return;
      if (f.kind === "status") return send(res, f.status, `{"errors":["status ${f.status}"]}`);
      if (f.kind === "redirect_loop") {
        res.writeHead(302, { Location: req.url ?? "/" });
        res.end();
        return;
      }
      if (f.kind === "body") return send(res, 200, Buffer.from(f.body), "application/octet-stream");
      const whole = files.get(path)?.body ?? Buffer.alloc(1024, 1);
      res.writeHead(200, { "Content-Type": "application/zip", "Content-Length": whole.length });
      res.write(whole.subarray(0, Math.floor(whole.length / 2)));
      setTimeout(() => res.destroy(), 50);
      return;
    }
    if (path === "/.well-known/terraform.json") return send(res, 200, JSON.stringify({ "providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/" }));
    const file = files.get(path);
    if (file !== undefined) {
      // ranges as a static file server answers them: `bytes=N-` whose If-Range (if any) is the ETag
      const { status, from } = rangeOf(req, file.body);
      if (status === 200) {
        res.writeHead(200, { "Content-Type": file.type, "Content-Length": file.body.length, ETag: etagOf(file.body), "Accept-Ranges": "bytes" });
        res.end(file.body);
      } else {
        res.writeHead(206, { "Content-Type": file.type, "Content-Length": file.body.length - from, ETag: etagOf(file.body), "Content-Range": `bytes ${from}-${file.body.length - 1}/${file.body.length}` });
        res.end(file.body.subarray(from));
      }
      return;
    }
    let m = /^\/v1\/providers\/([^/]+)\/([^/]+)\/versions$/.exec(path);
    if (m !== null) {
      const p = providers.get(`${m[1]!}/${m[2]!}`);
      if (p === undefined) return send(res, 404, '{"errors":["Not Found"]}');
      return send(res, 200, JSON.stringify({ id: `${m[1]!}/${m[2]!}`, versions: [...p].map(([version, plats]) => ({ version, protocols: ["5.0", "6.0"], platforms: [...plats].map((pl) => ({ os: pl.split("_")[0], arch: pl.split("_")[1] })) })), warnings: null }));
    }
    m = /^\/v1\/providers\/([^/]+)\/([^/]+)\/([^/]+)\/download\/([^/]+)\/([^/]+)$/.exec(path);
    if (m !== null) {
      const d = downloads.get(`${m[1]!}/${m[2]!}/${m[3]!}/${m[4]!}_${m[5]!}`);
      if (d === undefined) return send(res, 404, '{"errors":["Not Found"]}');
      const pre = `/dl/${m[1]!}/${m[2]!}/${m[3]!}/`;
      return send(
        res,
        200,
        JSON.stringify({
          protocols: ["5.0", "6.0"],
          os: m[4],
          arch: m[5],
          filename: d.filename,
          download_url: `${base}${pre}${d.filename}`,
          shasums_url: `${base}${pre}SHA256SUMS`,
          shasums_signature_url: `${base}${pre}SHA256SUMS.sig`,
          shasum: d.shasum,
          signing_keys: { gpg_public_keys: [{ key_id: signer.id, ascii_armor: signer.armored, trust_signature: d.trust, source: "magma", source_url: null }] },
        }),
      );
    }
    m = /^\/mirror\/([^/]+)\/([^/]+)\/([^/]+)\/index\.json$/.exec(path);
    if (m !== null && m[1] === hostname) {
      const p = providers.get(`${m[2]!}/${m[3]!}`);
      if (p === undefined) return send(res, 404, "{}");
      return send(res, 200, JSON.stringify({ versions: Object.fromEntries([...p.keys()].map((v) => [v, {}])) }));
    }
    m = /^\/mirror\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (m !== null && m[1] === hostname) {
      const p = providers.get(`${m[2]!}/${m[3]!}`)?.get(m[4]!);
      if (p === undefined) return send(res, 404, "{}");
      const archives: Record<string, { url: string; hashes: string[] }> = {};
      for (const pl of p) {
        const d = downloads.get(`${m[2]!}/${m[3]!}/${m[4]!}/${pl}`)!;
        archives[pl] = { url: `/dl/${m[2]!}/${m[3]!}/${m[4]!}/${d.filename}`, hashes: [d.h1] };
      }
      return send(res, 200, JSON.stringify({ archives }));
    }
    m = /^\/v1\/modules\/([^/]+)\/([^/]+)\/([^/]+)\/versions$/.exec(path);
    if (m !== null) {
      const mod = modules.get(`${m[1]!}/${m[2]!}/${m[3]!}`);
      if (mod === undefined) return send(res, 404, '{"errors":["Not Found"]}');
      return send(res, 200, JSON.stringify({ modules: [{ source: `${m[1]!}/${m[2]!}/${m[3]!}`, versions: [...mod.keys()].map((version) => ({ version })) }] }));
    }
    m = /^\/v1\/modules\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\/download$/.exec(path);
    if (m !== null) {
      const at = modules.get(`${m[1]!}/${m[2]!}/${m[3]!}`)?.get(m[4]!);
      if (at === undefined) return send(res, 404, '{"errors":["Not Found"]}');
      res.writeHead(204, { "X-Terraform-Get": `${base}${at}?archive=tar.gz` });
      res.end();
      return;
    }
    send(res, 404, '{"errors":["Not Found"]}');
  };

  const server: Server = createServer({ key, cert }, handle);
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  base = `https://127.0.0.1:${port}`;

  const trustSignature = async (given: string | undefined): Promise<string> => {
    if (given !== "stranger") return given ?? "";
    const message = await openpgp.createMessage({ binary: signer.body });
    return (await openpgp.sign({ message, signingKeys: stranger.priv, detached: true, format: "armored" })) as string;
  };

  const rebuildSums = async (ns: string, type: string, version: string, unknownKey: boolean): Promise<void> => {
    const plats = providers.get(`${ns}/${type}`)?.get(version) ?? new Set<string>();
    const lines = [...plats]
      .map((pl) => downloads.get(`${ns}/${type}/${version}/${pl}`)!)
      .sort((a, b) => (a.filename < b.filename ? -1 : 1))
      .map((d) => `${createHash("sha256").update(files.get(`/dl/${ns}/${type}/${version}/${d.filename}`)!.body).digest("hex")}  ${d.filename}\n`)
      .join("");
    const message = await openpgp.createMessage({ binary: Buffer.from(lines) });
    const sig = await openpgp.sign({ message, signingKeys: (unknownKey ? stranger : signer).priv, detached: true, format: "binary" });
    files.set(`/dl/${ns}/${type}/${version}/SHA256SUMS`, { body: Buffer.from(lines), type: "text/plain" });
    files.set(`/dl/${ns}/${type}/${version}/SHA256SUMS.sig`, { body: Buffer.from(sig as Uint8Array), type: "application/octet-stream" });
  };

  return {
    url: base,
    hostname,
    caFile,
    keyId: signer.id,
    requests,
    authorizations,
    ranges,
    env: { SSL_CERT_FILE: caFile, NODE_EXTRA_CA_CERTS: caFile },
    async publish(r) {
      const platform = r.platform ?? "linux_amd64";
      const zip = writeZip(r.files);
      const filename = `terraform-provider-${r.type}_${r.version}_${platform}.zip`;
      const path = `/dl/${r.namespace}/${r.type}/${r.version}/${filename}`;
      files.set(path, { body: zip, type: "application/zip" });
      const sha = createHash("sha256").update(zip).digest("hex");
      const h1 = h1Of(r.files);
      const byType = providers.get(`${r.namespace}/${r.type}`) ?? new Map<string, Set<string>>();
      providers.set(`${r.namespace}/${r.type}`, byType);
      const plats = byType.get(r.version) ?? new Set<string>();
      byType.set(r.version, plats);
      plats.add(platform);
      downloads.set(`${r.namespace}/${r.type}/${r.version}/${platform}`, { filename, shasum: r.wrongShasum === true ? createHash("sha256").update("not it").digest("hex") : sha, sums: "", sig: "", h1, trust: await trustSignature(r.trustSignature) });
      await rebuildSums(r.namespace, r.type, r.version, r.signWithUnknownKey === true);
      return { zip, zh: `zh:${sha}`, h1, path };
    },
    publishModule(mod) {
      const src = mkdtempSync(join(dir, "module-"));
      for (const [name, text] of Object.entries(mod.files)) writeFileSync(join(src, name), text);
      const archive = join(dir, `${mod.namespace}-${mod.name}-${mod.provider}-${mod.version}.tar.gz`);
      execFileSync("tar", ["-czf", archive, "-C", src, "."]);
      const path = `/archives/${mod.namespace}/${mod.name}/${mod.provider}/${mod.version}.tar.gz`;
      files.set(path, { body: readFileSync(archive), type: "application/gzip" });
      const key = `${mod.namespace}/${mod.name}/${mod.provider}`;
      const versions = modules.get(key) ?? new Map<string, string>();
      versions.set(mod.version, path);
      modules.set(key, versions);
    },
    fault(path, fault) {
      faults.push({ path, fault, served: 0 });
    },
    clearFaults() {
      faults.length = 0;
    },
    cliConfig(options = {}) {
      const host = `host ${JSON.stringify(hostname)} {\n  services = {\n    "providers.v1" = "${base}/v1/providers/"\n    "modules.v1"   = "${base}/v1/modules/"\n  }\n}\n`;
      const install =
        options.mirror === true
          ? `provider_installation {\n  network_mirror {\n    url = "${base}/mirror/"\n  }\n}\n`
          : `provider_installation {\n  direct {}\n}\n`;
      return `${host}${install}${options.extra ?? ""}`;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
