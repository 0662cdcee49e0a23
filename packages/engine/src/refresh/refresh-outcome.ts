/** How the refresh of one object in state ended. */
export interface RefreshOutcome {
  /** The instance address (with ` (deposed <key>)` appended for a deposed object). */
  readonly address: string;
  /** `in-sync`: read, unchanged; `changed`: read, drifted; `gone`: the provider says the object no longer exists; `failed`: the read failed. */
  readonly result: "in-sync" | "changed" | "gone" | "failed";
  /** For `failed`: the failure. */
  readonly error?: unknown;
}
