/**
 * Reliability and security test support (private): a fault-injecting provider served with
 * `@magma/provider-server`, and the fuzz properties shared by the CI test and the long
 * fuzz script.
 *
 * @packageDocumentation
 */
export { FaultMode, FaultOperation, isFaultMode, isFaultOperation } from "./fault-mode.js";
export { createFaultProvider, faultDataEntry, faultDataType, faultProviderEntry, faultThingEntry, faultThingType } from "./fault-provider.js";
export type { FaultHooks, FaultProviderSettings } from "./fault-provider.js";
export { faultProviderMain, writeFaultProviderLauncher } from "./write-fault-provider-launcher.js";
export { emptyStats, fuzzTargets, typeArb } from "./fuzz-targets.js";
export type { FuzzLimits, FuzzStats, FuzzTarget } from "./fuzz-targets.js";
