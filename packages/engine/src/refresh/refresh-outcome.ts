/** How the refresh of one object in state ended. */
export interface RefreshOutcome {
  /** The instance address (with ` (deposed object <key>)` appended for a deposed object). */
  readonly address: string;
  /** `in-sync`: read, unchanged; `changed`: read, drifted; `gone`: the provider says the object no longer exists; `failed`: the read failed. */
  readonly result: "in-sync" | "changed" | "gone" | "failed";
  /** For `failed`: the failure. */
  readonly error?: unknown;
  /**
   * The absolute provider configuration address that read the object (state's `provider`
   * field, e.g. `provider["registry.terraform.io/hashicorp/aws"].west`). Optional; when set,
   * the refresh guard also judges each provider configuration's objects on their own, so
   * that one provider's outage (wrong region, expired credentials) is not diluted by the
   * objects of healthy providers.
   */
  readonly provider?: string;
  /**
   * Whether the object is a deposed one (the old half of an interrupted create_before_destroy
   * replace). Such an object is to be destroyed anyway: when it is gone (its delete landed, the
   * run that sent it was killed before saving) nothing is lost and nothing will be created
   * again, so the refresh guard's "gone" rules leave it out (a failed read still counts).
   */
  readonly deposed?: boolean;
}
