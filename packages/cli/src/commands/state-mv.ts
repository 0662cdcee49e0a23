import { formatModuleInstance, type ResourceInstanceAddress, type ResourceState, type StateFile } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import { optional } from "../optional.js";
import { changeState } from "../workdir/state-lock.js";
import { cloneResources, parseSelector, resourceText, selects, stateInstances, type StateSelector } from "../workdir/state-objects.js";
import type { CommandContext } from "./command-context.js";
import { backupPath } from "./state-backup.js";
import { lockSettings, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

const moveError = (summary: string, detail: string): CliError => new CliError(CliErrorCode.BadInput, summary, { detail });

const sameResource = (r: ResourceState, a: ResourceInstanceAddress): boolean =>
  formatModuleInstance(r.module) === formatModuleInstance(a.module) && r.mode === a.mode && r.type === a.type && r.name === a.name;

/**
 * Moves what `src` selects to `dst` in `state` (Terraform's `state mv` rules: a module to a
 * module, a resource to a resource or — when it has a single unkeyed instance — to an
 * instance, an instance to an instance; the destination must be free and of the same type).
 * Returns the new state and how many objects moved (1, as Terraform counts a move).
 *
 * @throws CliError naming the problem as Terraform does.
 */
export function moveInState(state: StateFile, src: StateSelector, dst: StateSelector): { state: StateFile; moved: number } {
  const r = moveObjects(state, src, dst);
  return { state: { ...r.state, resources: dropDependenciesOn(r.state.resources, src) }, moved: r.moved };
}

/**
 * Terraform's `state mv` clean-up: every current object whose `dependencies` name something the
 * source address contains (or that contains the source) loses all of them, "to ensure they are
 * recreated in full" by the next apply. A dependency is a configuration resource
 * (`module.m.aws_x.y`): it contains a moved resource or instance of that configuration
 * resource; a moved module (without instance keys) contains the resources under it.
 */
function dropDependenciesOn(resources: readonly ResourceState[], src: StateSelector): ResourceState[] {
  const affected = (dep: string): boolean => {
    if (src.kind === "module") {
      if (src.module.some((m) => m.key !== undefined)) return false;
      return dep.startsWith(src.module.map((m) => `module.${m.name}.`).join(""));
    }
    const a = src.addr;
    return dep === `${a.module.map((m) => `module.${m.name}.`).join("")}${a.mode === "data" ? "data." : ""}${a.type}.${a.name}`;
  };
  return resources.map((r) => ({ ...r, instances: r.instances.map((o) => (o.deposed === undefined && o.dependencies.some(affected) ? { ...o, dependencies: [] } : o)) }));
}

function moveObjects(state: StateFile, src: StateSelector, dst: StateSelector): { state: StateFile; moved: number } {
  const resources = cloneResources(state);
  const all = stateInstances(state);
  if (!all.some((i) => selects(src, i.addr))) {
    throw moveError("Invalid source address", `Cannot move ${src.text}: does not match anything in the current state.`);
  }
  if (src.kind === "module") {
    if (dst.kind !== "module") throw moveError("Invalid state move request", `Cannot move ${src.text} to ${dst.text}: the target must also be a module.`);
    const depth = src.module.length;
    const out = resources.map((r) => (selects(src, { ...r, key: undefined }) ? { ...r, module: [...dst.module, ...r.module.slice(depth)] } : r));
    const seen = new Set<string>();
    for (const r of out) {
      const t = resourceText(r);
      if (seen.has(t)) throw moveError("Invalid target address", `Cannot move to ${dst.text}: there is already a resource instance at that address in the current state.`);
      seen.add(t);
    }
    // Terraform counts one moved object per address moved, whatever it holds.
    return { state: { ...state, resources: out }, moved: 1 };
  }
  if (dst.kind === "module") throw moveError("Invalid state move request", `Cannot move ${src.text} to ${dst.text}: the target must also be a resource or resource instance.`);
  const s = src.addr;
  const d = dst.addr;
  if (s.mode !== d.mode || s.type !== d.type) {
    throw moveError("Invalid state move request", `Cannot move ${src.text} to ${dst.text}: resource types don't match.`);
  }
  const srcRes = resources.find((r) => sameResource(r, s))!;
  const dstRes = resources.find((r) => sameResource(r, d));
  if (src.kind === "resource" && dst.kind === "resource") {
    if (dstRes !== undefined) throw moveError("Invalid target address", `Cannot move to ${dst.text}: there is already a resource at that address in the current state.`);
    Object.assign(srcRes, { module: d.module, name: d.name });
    return { state: { ...state, resources }, moved: 1 };
  }
  // An instance move (a resource with a single unkeyed instance counts as that instance).
  const srcKey = src.kind === "instance" ? s.key : undefined;
  if (src.kind === "resource" && srcRes.instances.some((o) => o.indexKey !== undefined)) {
    throw moveError("Invalid target address", `Cannot move ${src.text} to ${dst.text}: the source is a whole resource (not a single instance) but the target is a specific instance.`);
  }
  if (dstRes !== undefined && dstRes.instances.some((o) => o.indexKey === d.key)) {
    throw moveError("Invalid target address", `Cannot move to ${dst.text}: there is already a resource instance at that address in the current state.`);
  }
  const objs = srcRes.instances.filter((o) => o.indexKey === srcKey);
  srcRes.instances = srcRes.instances.filter((o) => o.indexKey !== srcKey);
  const target: ResourceState = dstRes ?? { module: d.module, mode: srcRes.mode, type: d.type, name: d.name, provider: srcRes.provider, instances: [] };
  target.instances.push(...objs.map((o) => ({ ...o, indexKey: d.key })));
  const next = resources.filter((r) => r.instances.length > 0);
  if (dstRes === undefined) next.push(target);
  return { state: { ...state, resources: next }, moved: 1 };
}

/** Runs the command (its registration — name, flags, help — is in state-mv-command.ts, which loads this module on demand). */
export async function stateMvAction(ctx: CommandContext, source: string, destination: string, o: WorkdirOptions): Promise<void> {
  const src = parseSelector(source);
  const dst = parseSelector(destination);
  await withWorkingDir(ctx, o, async (wd) => {
    let moved = 0;
    await changeState(
      wd.store(),
      { operation: "OperationTypeInvalid", lock: lockSettings(o), ...optional("signal", ctx.signal), ...optional("backupPath", backupPath(wd, o.backup)) },
      (st) => {
        const r = moveInState(st, src, dst);
        moved = r.moved;
        return o.dryRun === true ? undefined : r.state;
      },
    );
    if (o.dryRun === true) ctx.print(`Would move ${JSON.stringify(source)} to ${JSON.stringify(destination)}\n`);
    else ctx.print(`Move ${JSON.stringify(source)} to ${JSON.stringify(destination)}\nSuccessfully moved ${moved} object(s).\n`);
  }, undefined, "ui-absolute");
}
