import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isProvisionerDiagnostic, loadModule, type Module } from "@magma/config";
import { isStateError, openConfiguredBackend, type StateBackend, type StateStore } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import { applyBackendOverrides } from "./backend-overrides.js";
import { backendSettingsFromConfig, type BackendSettings } from "./backend-settings.js";
import { InvalidConfigurationError } from "./invalid-configuration-error.js";
import { backendRecord, readBackendRecord, settingsFromRecord } from "./init-backend.js";

/** Options of {@link openWorkingDir}. */
export interface OpenWorkingDirOptions {
  /** The working directory (the root module). */
  readonly dir: string;
  /** The environment: `TF_WORKSPACE`, `TF_DATA_DIR`, `PG_*` for the pg backend. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Terraform's legacy `-state=PATH`: the local backend's state file for the default
   * workspace (relative to `dir`), instead of the configuration's `path`.
   */
  readonly statePath?: string;
  /**
   * `init -backend-config` arguments (`key=value` or files) applied over the backend block.
   * Without them, a backend recorded by `init` for the same block (same type and hash) is
   * used with its recorded configuration, as terraform does (so settings given at init stay).
   */
  readonly backendConfig?: readonly string[];
}

/** A Terraform working directory: its configuration's backend, its workspaces and the current one. */
export interface WorkingDir {
  /** The working directory's absolute path. */
  readonly dir: string;
  /** The data directory (`.terraform`, or `TF_DATA_DIR`), absolute. */
  readonly dataDir: string;
  /** The backend settings in use. */
  readonly settings: BackendSettings;
  /** The backend block's own settings (without `-backend-config` or recorded ones): what terraform hashes. */
  readonly blockSettings: BackendSettings;
  /** The backend holding the workspaces' states. */
  readonly backend: StateBackend;
  /** True when `TF_WORKSPACE` chooses the workspace (then `.terraform/environment` is not used). */
  readonly workspaceOverridden: boolean;
  /** The current workspace: `TF_WORKSPACE`, else `.terraform/environment`, else `default`. */
  currentWorkspace(): string;
  /** Makes `name` the current workspace (writes `.terraform/environment`). */
  selectWorkspace(name: string): void;
  /** The state store of a workspace (default: the current one). */
  store(workspace?: string): StateStore;
  /** Releases the backend's resources (the pg pool). */
  close(): Promise<void>;
}

/**
 * Loads the root module's own files (not its modules) for the `terraform` block, as
 * terraform's backend initialisation does.
 *
 * @throws InvalidConfigurationError when they do not load, with their diagnostics.
 */
function loadRootModule(dir: string): Module | undefined {
  if (!existsSync(dir)) throw new CliError(CliErrorCode.BadInput, `the working directory ${dir} does not exist`);
  const { module, diags } = loadModule(dir, { displayDir: "." });
  // magma's refusal of provisioners does not stop the backend's set-up (init goes on, as
  // terraform's; the commands that plan or validate report it with the configuration).
  if (diags.some((d) => d.severity === "error" && !isProvisionerDiagnostic(d))) throw new InvalidConfigurationError(diags);
  return module;
}

/**
 * The current workspace of a working directory whose data directory is `dataDir` (absolute):
 * `TF_WORKSPACE`, else `.terraform/environment`, else `default`. Reads no configuration (as
 * terraform's `workspace show`).
 */
export function currentWorkspaceName(dataDir: string, env: Readonly<Record<string, string | undefined>>): string {
  const overridden = env["TF_WORKSPACE"];
  if (overridden !== undefined && overridden !== "") return overridden;
  const envFile = join(dataDir, "environment");
  try {
    const name = readFileSync(envFile, "utf8").trim();
    return name === "" ? "default" : name;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "default";
    throw new CliError(CliErrorCode.BadInput, `cannot read the current workspace from ${envFile}: ${(e as Error).message}`);
  }
}

/**
 * Opens a Terraform working directory as terraform does before a state command: reads the
 * configuration's `backend` block (`local` with `path`/`workspace_dir`, `pg` with
 * `conn_str`/`schema_name`, `http` with `address`/`lock_address`/…, or the local default when
 * there is none) and knows the current
 * workspace (`TF_WORKSPACE`, else `.terraform/environment`, else `default`), laid out as
 * Terraform lays it out so that terraform and magma can take turns on the directory.
 *
 * @throws InvalidConfigurationError for a root module that does not load; CliError `bad_input` for an invalid backend block.
 */
export async function openWorkingDir(options: OpenWorkingDirOptions): Promise<WorkingDir> {
  const dir = resolve(options.dir);
  const module = loadRootModule(dir);
  const blockSettings = backendSettingsFromConfig(module?.backend);
  const dataDir = resolve(dir, options.env["TF_DATA_DIR"] || ".terraform");
  let settings = blockSettings;
  if (options.backendConfig !== undefined && options.backendConfig.length > 0) settings = applyBackendOverrides(blockSettings, options.backendConfig, dir);
  else if (module?.backend !== undefined) {
    const recorded = readBackendRecord(dataDir);
    if (recorded !== undefined && recorded.type === blockSettings.type && recorded.hash === backendRecord(blockSettings).hash) settings = settingsFromRecord(recorded.type, recorded.config);
  }
  const values = options.statePath !== undefined && settings.type === "local" ? { ...settings.values, path: options.statePath } : settings.values;
  let opened;
  try {
    opened = await openConfiguredBackend(settings.type, values, { dir, env: options.env });
  } catch (e) {
    if (isStateError(e) && e.code === "invalid_argument") throw new CliError(CliErrorCode.BadInput, `backend configuration: ${e.message.replace(/^\[[a-z_]+\] /, "")}`, { cause: e });
    throw e;
  }
  const backend: StateBackend = opened.backend;
  const close = (): Promise<void> => opened.close();
  const envFile = join(dataDir, "environment");
  const overridden = options.env["TF_WORKSPACE"];
  const wd: WorkingDir = {
    dir,
    dataDir,
    settings,
    blockSettings,
    backend,
    workspaceOverridden: overridden !== undefined && overridden !== "",
    currentWorkspace() {
      return currentWorkspaceName(dataDir, options.env);
    },
    selectWorkspace(name) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(envFile, name);
    },
    store(workspace) {
      return backend.store(workspace ?? wd.currentWorkspace());
    },
    close,
  };
  return wd;
}
