/**
 * Terraform's state: format v4, addresses, and storage that Terraform itself can share.
 *
 * @packageDocumentation
 */

export type { LockInfo, LockRequest, StateStore, StateBackend } from "./backend.js";
