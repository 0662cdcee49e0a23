import { randomUUID } from "node:crypto";
import type { InstanceKey } from "./address/instance-key.js";
import type { ModuleInstanceAddress } from "./address/module-address.js";
import type { ProviderConfigAddress } from "./address/provider-address.js";

/** The Terraform version magma writes into `terraform_version` (the one it declares to providers). */
export const TERRAFORM_VERSION = "1.11.4";

/**
 * One root module output value. The value and its cty type are kept as the JSON text the
 * file holds (go-cty's JSON encodings), so a value is written back exactly as it was read;
 * decode them with `decodeOutput` (or `typeFromJson`/`fromJson` of `@magma/cty`).
 */
export interface OutputState {
  /** The value, as go-cty JSON of `typeJson`. */
  valueJson: string;
  /** The value's type, as go-cty type JSON (e.g. `"string"`, `["list","number"]`). */
  typeJson: string;
  /** Whether the output is marked sensitive. */
  sensitive: boolean;
}

/** One object of a resource instance: the current object, or a deposed one. */
export interface InstanceObjectState {
  /** The instance key: a number (`count`), a string (`for_each`), or undefined. */
  indexKey: InstanceKey;
  /** For a deposed object, its 8-character deposed key; undefined for the current object. */
  deposed: string | undefined;
  /** Whether the object is tainted (`"status": "tainted"`). */
  tainted: boolean;
  /** The version of the resource type's schema the attributes were written with. */
  schemaVersion: number;
  /**
   * The object's attributes as JSON text, kept undecoded until a schema is at hand (what
   * `UpgradeResourceState` takes as `raw_state.json`); undefined only for legacy flatmap
   * objects. Read from a file it is the text the file holds; any valid JSON may be put here,
   * the writer prints it as Terraform does.
   */
  attributesJson: string | undefined;
  /** Legacy (state v3) flatmap attributes, when the object has them. */
  attributesFlat: Map<string, string> | undefined;
  /**
   * The paths of sensitive attributes as JSON text: a list of paths, each a list of
   * `{"type":"get_attr","value":"x"}` / `{"type":"index","value":{"value":0,"type":"number"}}` steps.
   */
  sensitiveAttributesJson: string;
  /** The provider's private data (written base64), or undefined. */
  private: Uint8Array | undefined;
  /** The resources (config addresses, e.g. `module.m.aws_x.y`) this object depended on when last applied. */
  dependencies: string[];
  /** Whether the object was created with `create_before_destroy`. */
  createBeforeDestroy: boolean;
}

/** One resource: its address parts, its provider configuration and its instance objects. */
export interface ResourceState {
  /** The module instance holding the resource (empty for the root module). */
  module: ModuleInstanceAddress;
  /** `managed` or `data`. */
  mode: "managed" | "data";
  /** The resource type. */
  type: string;
  /** The resource name. */
  name: string;
  /** The provider configuration that manages the resource. */
  provider: ProviderConfigAddress;
  /** The current and deposed objects of every instance. */
  instances: InstanceObjectState[];
}

/** The result of one checkable object (`object_addr`, `status`, `failure_messages`). */
export interface CheckObjectState {
  /** The object's address, e.g. `aws_x.y[0]`. */
  objectAddr: string;
  /** `pass`, `fail`, `error` or `unknown`. */
  status: CheckStatus;
  /** Failure messages, if any. */
  failureMessages: string[];
}

/** A check status as state v4 records it. */
export type CheckStatus = "pass" | "fail" | "error" | "unknown";

/** The aggregate result of one checkable configuration object. */
export interface CheckResultState {
  /** `resource`, `output`, `check` or `var` (a variable with validations, Terraform 1.9 and later). */
  objectKind: "resource" | "output" | "check" | "var";
  /** The configuration address, e.g. `aws_x.y` or `output.o`. */
  configAddr: string;
  /** The aggregate status. */
  status: CheckStatus;
  /** The per-object results (empty when the file has none). */
  objects: CheckObjectState[];
}

/** A state snapshot as `terraform.tfstate` (format version 4) holds it. */
export interface StateFile {
  /** The version of Terraform (or magma's declared version) that wrote the snapshot; "" if none. */
  terraformVersion: string;
  /** Increases with every persisted change. */
  serial: number;
  /** A UUID fixed when the state was created. */
  lineage: string;
  /** The root module's output values, by name. */
  outputs: Map<string, OutputState>;
  /** The resources, in the file's order (the writer sorts them as Terraform does). */
  resources: ResourceState[];
  /** Results of the last run's checks; undefined when there are none. */
  checkResults: CheckResultState[] | undefined;
}

/** A new, empty state with a fresh lineage and serial 0 (what Terraform creates on first write). */
export function newStateFile(): StateFile {
  return {
    terraformVersion: TERRAFORM_VERSION,
    serial: 0,
    lineage: randomUUID(),
    outputs: new Map(),
    resources: [],
    checkResults: undefined,
  };
}
