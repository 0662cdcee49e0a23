import { fromJson, typeFromJson } from "@magma/cty";
import type { InstanceKey } from "./address/instance-key.js";
import { parseModuleInstance, type ModuleInstanceAddress } from "./address/module-address.js";
import { parseLegacyProviderConfig, parseProviderConfig, type ProviderConfigAddress } from "./address/provider-address.js";
import { formatResource, formatResourceInstance, parseResource } from "./address/resource-address.js";
import { markCanonical } from "./internal/canonical-attributes.js";
import { JsonReader } from "./internal/json-reader.js";
import { StateError, isStateError } from "./state-error.js";
import type { CheckObjectState, CheckResultState, CheckStatus, InstanceObjectState, OutputState, ResourceState, StateFile } from "./state-file.js";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const VERSION = /^v?[0-9]+(?:\.[0-9]+)*(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

function corrupt(why: string, cause?: unknown): never {
  throw new StateError("corrupt", `the state file is not valid: ${why}`, cause === undefined ? {} : { cause });
}

/** Options of {@link readStateFile}. */
export interface ReadStateFileOptions {
  /** What the bytes are, for messages (e.g. the file's path). Default "the state file". */
  readonly source?: string;
}

/**
 * Reads a `terraform.tfstate` (format version 4) as Terraform 1.11 does, refusing what it
 * refuses. Returns undefined for empty input (no state yet, like Terraform's `ErrNoState`).
 *
 * @throws StateError `unsupported_version` for versions 1–3 (upgrade with Terraform first) and
 *   above 4, or `corrupt` naming what is wrong and where (never a partial result).
 */
export function readStateFile(bytes: Uint8Array | string, options: ReadStateFileOptions = {}): StateFile | undefined {
  const text = typeof bytes === "string" ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (text.length === 0) return undefined;
  const source = options.source ?? "the state file";
  if (text.charCodeAt(0) === 0xfeff) corrupt(`${source} starts with a byte order mark`);
  if (!/^\s*\{/.test(text)) {
    throw new StateError("corrupt", `${source} is not a state file: it does not hold a JSON object${text.startsWith("tfstate") ? " (it is in the binary format of Terraform before v0.7)" : ""}`);
  }
  const r = new JsonReader(text, source);
  // Sniff the version first, as Terraform does, so an old or new format gets the right error.
  const version = sniffVersion(text, source);
  if (version !== 4) {
    const hint =
      version === 0
        ? "there never was a JSON state format 0"
        : version < 4
          ? `format version ${version} is from Terraform before v0.12; upgrade it by running Terraform v0.13–v1.x (e.g. terraform apply/refresh) on it first`
          : `format version ${version} is newer than format 4, which magma and Terraform 1.11 read; it was written by a newer Terraform`;
    throw new StateError("unsupported_version", `${source} uses state format version ${version}: ${hint}`);
  }
  const file: StateFile = { terraformVersion: "", serial: 0, lineage: "", outputs: new Map(), resources: [], checkResults: undefined };
  const byAddress = new Map<string, ResourceState>();
  const cache: AddressCache = { modules: new Map(), providers: new Map() };
  r.object("the state", (key) => {
    switch (key) {
      case "version":
        r.uint("version");
        return;
      case "terraform_version": {
        const v = r.optString("terraform_version");
        if (v !== "" && !VERSION.test(v)) r.fail(`terraform_version ${JSON.stringify(v)} is not a valid version string`);
        file.terraformVersion = v;
        return;
      }
      case "serial":
        file.serial = r.uint("serial");
        return;
      case "lineage":
        file.lineage = r.optString("lineage");
        return;
      case "outputs":
        file.outputs = new Map();
        r.object("outputs", (name) => {
          file.outputs.set(name, readOutput(r, name));
        });
        return;
      case "resources":
        byAddress.clear();
        file.resources = [];
        r.array("resources", () => {
          const rs = readResource(r, cache);
          const addr = `${formatResource(rs)}`;
          const prev = byAddress.get(addr);
          if (prev === undefined) {
            byAddress.set(addr, rs);
            file.resources.push(rs);
          } else {
            // Terraform merges a resource listed twice; its provider is the last one's.
            prev.provider = rs.provider;
            prev.instances.push(...rs.instances);
          }
        });
        return;
      case "check_results": {
        const list: CheckResultState[] = [];
        const present = r.array("check_results", () => list.push(readCheckResult(r)));
        file.checkResults = present ? list : undefined;
        return;
      }
      default:
        r.raw();
    }
  });
  r.end();
  for (const rs of file.resources) checkInstances(rs);
  return file;
}

function sniffVersion(text: string, source: string): number {
  const r = new JsonReader(text, source);
  let version: number | undefined;
  // Terraform writes "version" first: stop there (the full read validates the rest).
  const found = {};
  try {
    r.object("the state", (key) => {
      if (key === "version") {
        const at = r.pos;
        if (r.peek() !== "-" && !/[0-9]/.test(r.peek())) r.fail("the version must be a positive whole number", at);
        version = r.uint("version");
        throw found;
      } else r.raw();
    });
    r.end();
  } catch (e) {
    if (e !== found) throw e;
  }
  if (version === undefined) corrupt(`${source} has no "version" attribute, which identifies its format`);
  return version;
}

function readOutput(r: JsonReader, name: string): OutputState {
  let valueJson: string | undefined;
  let typeJson: string | undefined;
  let sensitive = false;
  const at = r.pos;
  r.object(`output ${JSON.stringify(name)}`, (key) => {
    if (key === "value") valueJson = r.raw();
    else if (key === "type") typeJson = r.raw();
    else if (key === "sensitive") sensitive = r.bool("sensitive");
    else r.raw();
  });
  if (typeJson === undefined || valueJson === undefined) r.fail(`output ${JSON.stringify(name)} needs a "value" and a "type"`, at);
  try {
    fromJson(valueJson, typeFromJson(typeJson));
  } catch (e) {
    r.fail(`output ${JSON.stringify(name)} has an invalid value or type (${e instanceof Error ? e.message : String(e)})`, at);
  }
  return { valueJson, typeJson, sensitive };
}

/** Parsed module and provider addresses of one read (resources repeat them). */
interface AddressCache {
  readonly modules: Map<string, ModuleInstanceAddress>;
  readonly providers: Map<string, ProviderConfigAddress>;
}

function readResource(r: JsonReader, cache: AddressCache): ResourceState {
  const at = r.pos;
  let moduleText = "";
  let mode = "";
  let type = "";
  let name = "";
  let providerText = "";
  let instances: InstanceObjectState[] = [];
  r.object("a resource", (key) => {
    switch (key) {
      case "module": moduleText = r.optString("module"); return;
      case "mode": mode = r.optString("mode"); return;
      case "type": type = r.optString("type"); return;
      case "name": name = r.optString("name"); return;
      case "provider": providerText = r.optString("provider"); return;
      case "instances":
        instances = [];
        r.array("instances", () => instances.push(readInstance(r)));
        return;
      default:
        r.raw();
    }
  });
  if (mode !== "managed" && mode !== "data") r.fail(`resource ${JSON.stringify(type)} ${JSON.stringify(name)} has mode ${JSON.stringify(mode)}, which is not supported`, at);
  let module = cache.modules.get(moduleText);
  if (module === undefined) {
    try {
      module = parseModuleInstance(moduleText);
    } catch (e) {
      r.fail(`resource ${type}.${name} has an invalid module address: ${msg(e)}`, at);
    }
    cache.modules.set(moduleText, module);
  }
  let provider = cache.providers.get(providerText);
  if (provider === undefined) {
    try {
      provider = parseProviderConfig(providerText);
    } catch (e) {
      try {
        provider = parseLegacyProviderConfig(providerText);
      } catch {
        r.fail(`resource ${type}.${name} has an invalid provider address: ${msg(e)}`, at);
      }
    }
    cache.providers.set(providerText, provider);
  }
  // Like Terraform, the type and name are taken as they are.
  return { module, mode, type, name, provider, instances };
}

function msg(e: unknown): string {
  return isStateError(e) ? e.message.replace(/^\[[a-z_]+\] /, "") : e instanceof Error ? e.message : String(e);
}

function readInstance(r: JsonReader): InstanceObjectState {
  const at = r.pos;
  let indexKey: InstanceKey;
  let status = "";
  let deposed = "";
  let schemaVersion = 0;
  let attributesJson: string | undefined;
  let attributesBase: number | undefined;
  let attributesFlat: Map<string, string> | undefined;
  let sensitiveAttributesJson: string | undefined;
  let priv: Uint8Array | undefined;
  let dependencies: string[] = [];
  let createBeforeDestroy = false;
  r.object("an instance", (key) => {
    switch (key) {
      case "index_key": {
        const c = r.peek();
        if (c === '"') indexKey = r.string("index_key");
        else if (r.isNull()) indexKey = undefined;
        else {
          const t = r.numberText("index_key");
          const n = Number(t);
          if (!Number.isSafeInteger(n)) r.fail(`the instance key ${t} is not a whole number`);
          indexKey = n;
        }
        return;
      }
      case "status": status = r.optString("status"); return;
      case "deposed": deposed = r.optString("deposed"); return;
      case "schema_version": schemaVersion = r.uint("schema_version"); return;
      case "attributes": {
        const c = r.canonicalRaw();
        if (c === undefined) {
          attributesJson = r.raw();
          attributesBase = undefined;
        } else {
          attributesJson = c.json;
          attributesBase = c.base;
        }
        return;
      }
      case "attributes_flat": {
        const m = new Map<string, string>();
        attributesFlat = r.object("attributes_flat", (k) => m.set(k, r.string(`attributes_flat ${JSON.stringify(k)}`))) ? m : undefined;
        return;
      }
      case "sensitive_attributes": {
        const p = r.pos;
        const raw = r.raw();
        if (raw !== "null") {
          checkPaths(raw, r, p);
          sensitiveAttributesJson = raw;
        }
        return;
      }
      case "private": {
        const p = r.pos;
        const s = r.optString("private");
        if (!BASE64.test(s)) r.fail("private is not valid base64", p);
        priv = s === "" ? undefined : Buffer.from(s, "base64");
        return;
      }
      case "dependencies":
        dependencies = [];
        r.array("dependencies", () => {
          const p = r.pos;
          const d = r.string("a dependency");
          try {
            const a = parseResource(d);
            // Terraform keeps dependencies as configuration addresses (no module instance keys).
            dependencies.push(formatResource({ ...a, module: a.module.map((s) => ({ name: s.name, key: undefined })) }));
          } catch (e) {
            r.fail(`invalid dependency: ${msg(e)}`, p);
          }
        });
        return;
      case "create_before_destroy": createBeforeDestroy = r.bool("create_before_destroy"); return;
      default:
        r.raw();
    }
  });
  if (status !== "" && status !== "tainted") r.fail(`an instance has the invalid status ${JSON.stringify(status)}`, at);
  if (deposed !== "" && deposed.length !== 8) r.fail(`an instance has the deposed key ${JSON.stringify(deposed)}, which is not 8 characters`, at);
  if (attributesJson === undefined && attributesFlat === undefined) attributesJson = "{}";
  const o: InstanceObjectState = {
    indexKey,
    deposed: deposed === "" ? undefined : deposed,
    tainted: status === "tainted",
    schemaVersion,
    attributesJson,
    attributesFlat,
    sensitiveAttributesJson: sensitiveAttributesJson ?? "[]",
    private: priv,
    dependencies,
    createBeforeDestroy,
  };
  if (attributesJson !== undefined && attributesBase !== undefined) markCanonical(o, attributesJson, attributesBase);
  return o;
}

function checkPaths(raw: string, r: JsonReader, at: number): void {
  let paths: unknown;
  try {
    paths = JSON.parse(raw);
  } catch {
    r.fail("sensitive_attributes is not valid JSON", at);
  }
  const ok =
    Array.isArray(paths) &&
    paths.every(
      (p) =>
        Array.isArray(p) &&
        p.every((s: unknown) => {
          if (typeof s !== "object" || s === null) return false;
          const step = s as { type?: unknown; value?: unknown };
          if (step.type === "get_attr") return typeof step.value === "string";
          if (step.type === "index") return typeof step.value === "object" && step.value !== null && "value" in step.value && "type" in step.value;
          return false;
        }),
    );
  if (!ok) r.fail('sensitive_attributes must be a list of paths of {"type":"get_attr"|"index","value":…} steps', at);
}

function checkInstances(rs: ResourceState): void {
  const seen = new Set<string>();
  for (const o of rs.instances) {
    const k = `${typeof o.indexKey}:${String(o.indexKey)}:${o.deposed ?? ""}`;
    if (seen.has(k)) {
      const addr = formatResourceInstance({ ...rs, key: o.indexKey });
      corrupt(`instance ${addr}${o.deposed === undefined ? "" : ` deposed object ${o.deposed}`} appears more than once`);
    }
    seen.add(k);
  }
}

const KINDS = new Set(["resource", "output", "check", "var"]);

function status(s: string): CheckStatus {
  return s === "pass" || s === "fail" || s === "error" ? s : "unknown";
}

function readCheckResult(r: JsonReader): CheckResultState {
  const at = r.pos;
  let kind = "";
  let configAddr = "";
  let st = "";
  const objects: CheckObjectState[] = [];
  r.object("a check result", (key) => {
    switch (key) {
      case "object_kind": kind = r.optString("object_kind"); return;
      case "config_addr": configAddr = r.optString("config_addr"); return;
      case "status": st = r.optString("status"); return;
      case "objects":
        objects.length = 0;
        r.array("objects", () => {
          let objectAddr = "";
          let os = "";
          const failureMessages: string[] = [];
          r.object("a check object", (k) => {
            if (k === "object_addr") objectAddr = r.optString("object_addr");
            else if (k === "status") os = r.optString("status");
            else if (k === "failure_messages") {
              failureMessages.length = 0;
              r.array("failure_messages", () => failureMessages.push(r.string("a failure message")));
            } else r.raw();
          });
          objects.push({ objectAddr, status: status(os), failureMessages });
        });
        return;
      default:
        r.raw();
    }
  });
  if (!KINDS.has(kind)) r.fail(`unsupported checkable object kind ${JSON.stringify(kind)}`, at);
  return { objectKind: kind as CheckResultState["objectKind"], configAddr, status: status(st), objects };
}
