/**
 * Terraform's state: format v4, addresses, and storage that Terraform itself can share.
 *
 * @packageDocumentation
 */

export type { LockInfo, LockRequest, StateStore, StateBackend } from "./backend.js";
export { StateError, StateErrorCode, isStateError } from "./state-error.js";
export { openPgBackend, type PgBackend, type PgBackendOptions } from "./backends/pg.js";
