/**
 * Differential testing of magma against terraform 1.11.4 (private, never published): a
 * generator of multi-step stacks written in both syntaxes ({@link stackArbitrary},
 * {@link renderStep}), a comparer that runs them through both tools in twin directories
 * ({@link runTwin}), and a driver that batches, confirms, shrinks and writes reproductions
 * ({@link runDifftest}). `pnpm difftest` runs it.
 *
 * @packageDocumentation
 */
export { Construct, stackArbitrary } from "./stack-arbitrary.js";
export type { StackArbitraryOptions } from "./stack-arbitrary.js";
export type { Feature, Mutation, Repeat, Source, StackSpec, VariableSpec } from "./stack-spec.js";
export { attr, bare, bareList, bareMap, block, ex, lit, nativeLiteral, renderJson, renderNative } from "./hcl-ast.js";
export type { Body, BodyItem, Expr, Literal, TopBlock } from "./hcl-ast.js";
export { moduleCalls, renderStep, rootFiles, stackSteps, REQUIRED_PROVIDERS } from "./render-stack.js";
export type { LiveFeature, StepModel, Syntax } from "./render-stack.js";
export { diffValues, differenceSignature, normalisePlanJson, normaliseState, observeCommand } from "./compare-observations.js";
export type { CommandObservation, Difference, StepObservation } from "./compare-observations.js";
export { NoTerraformError, prepareDifftest } from "./difftest-setup.js";
export { NoMagmaBuildError, magmaBin, snapshotMagma } from "./magma-snapshot.js";
export type { MagmaSnapshot } from "./magma-snapshot.js";
export type { DifftestSetup } from "./difftest-setup.js";
export { ToolTimeoutError, runToolCommand } from "./tool-run.js";
export type { ToolCommand, ToolOutput } from "./tool-run.js";
export { batchFiles, runTwin, runTwinSteps } from "./twin-run.js";
export type { BatchStack, TwinOptions, TwinResult, TwinStep, TwinStepsResult } from "./twin-run.js";
export { prefixOf, runDifftest, syntaxOf, writeReproduction } from "./run-difftest.js";
export type { DifftestOptions, DifftestReport, StackDifference } from "./run-difftest.js";
export { KNOWN_OPEN } from "./known-differences.js";
export { COUNT_OFF_BY_ONE, FaultAnchorError, writeMutantMagma } from "./mutant-magma.js";
export type { MutantMagma, PlantedFault } from "./mutant-magma.js";
export { parseRegistrySource, rewriteRegistryModules } from "./module-source-rewrite.js";
export type { ModuleRewrite, RegistryModuleCall } from "./module-source-rewrite.js";
export { ProcessGroups, STOP_SIGNALS, killGroupsOnExit, liveProcessGroups } from "./process-groups.js";
export type { ExitHooks } from "./process-groups.js";
export { exampleRoots, runRealWorldRoot } from "./real-world-root.js";
export type { RealWorldOutcome, RealWorldResult, RealWorldSetup } from "./real-world-root.js";
export { renderRealWorldTable } from "./real-world-summary.js";
