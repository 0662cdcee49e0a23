import type { Path, Value } from "@magma/cty";
import type { Diag } from "@magma/provider-api";
import type { DeleteReason, PlanAction, ReadReason, ReplaceReason } from "./plan-action.js";

/**
 * The plan of one resource instance (Terraform's `plans.ResourceInstanceChange`): what
 * the apply will do and everything it needs to do it.
 */
export interface PlannedInstanceChange {
  /** The instance address, e.g. `aws_vpc.main` or `module.m.aws_x.y["k"]`. */
  readonly address: string;
  /** `managed` for a resource, `data` for a data source read deferred to apply. */
  readonly mode: "managed" | "data";
  /** The resource or data source type. */
  readonly typeName: string;
  /** What the apply does. */
  readonly action: PlanAction;
  /** The object before (the refreshed prior; null on create and read). */
  readonly before: Value;
  /** The object after, with unknowns where the provider will compute values (null on delete). */
  readonly after: Value;
  /** The configuration the plan was made with (null on delete); the apply re-plans with its now-known version. */
  readonly config: Value;
  /**
   * The configuration as a plan file keeps it, when it differs from {@link config}: with
   * every write-only value unknown, so that no plan file holds one and the apply of a saved
   * plan evaluates them again. Absent: `config` (and always absent on a decoded plan).
   */
  readonly persistedConfig?: Value;
  /** The `requiresReplace` paths whose prior and planned values really differ (empty unless replaced for that reason). */
  readonly requiresReplace: readonly Path[];
  /** Why the instance is replaced; set exactly for the replace actions. */
  readonly replaceReason?: ReplaceReason;
  /**
   * Why a data source is read during apply (action `read` only). Absent: derived — config
   * unknown when the configuration holds unknowns, else a dependency with changes pending.
   */
  readonly readReason?: ReadReason;
  /**
   * Why a current object is deleted (action `delete` of a normal plan), as the planner
   * decided it from the configuration. Absent: the renderers derive it.
   */
  readonly deleteReason?: DeleteReason;
  /** The private data stored with the prior object (empty when none). */
  readonly priorPrivate: Uint8Array;
  /** The provider's planned private data, for the apply (for a replace: the create half's). */
  readonly plannedPrivate: Uint8Array;
  /** Whether the prior object is tainted. */
  readonly priorTainted: boolean;
  /** The provider answered with the legacy SDK type system flag (its plans are only loosely checked). */
  readonly legacyTypeSystem: boolean;
  /** The warnings of the planning calls (and the tolerated problems of a legacy provider's plan). */
  readonly warnings: readonly Diag[];

  // What the configuration-level planner adds (absent on changes built by the instance steps alone).

  /** The module instance the instance belongs to: `""` for the root module, else e.g. `module.net["a"]`. Default: parsed from {@link address}. */
  readonly moduleAddress?: string;
  /**
   * The absolute provider configuration address, as state's `provider` field writes it:
   * `provider["registry.terraform.io/hashicorp/aws"]`, `module.m.provider["registry.terraform.io/hashicorp/aws"].west`.
   * The apply configures each such provider once and routes the instance's calls to it.
   */
  readonly providerConfig?: string;
  /**
   * The absolute resource addresses (without instance keys, e.g. `aws_vpc.main`,
   * `module.m.aws_subnet.a`) this instance depends on, directly or through locals, variables,
   * module outputs and `depends_on`: state's `dependencies`. The apply orders creates and
   * updates after them and deletes before them.
   */
  readonly dependencies?: readonly string[];
  /** Whether `create_before_destroy` applies to the instance (set in its configuration or propagated from a dependent). */
  readonly createBeforeDestroy?: boolean;
  /** For the delete of a deposed object (the old half of an earlier interrupted create-before-destroy): its deposed key. */
  readonly deposedKey?: string;
  /** The resource type's schema version, written to state with the new object. */
  readonly schemaVersion?: number;
  /** Set when a `moved` block renamed the instance: its address in the prior state. */
  readonly previousAddress?: string;
  /** Set when an `import` block adopts the object: the import id (the change then applies to the imported object). */
  readonly importId?: string;
  /**
   * The `provider_meta` value of the module declaring the resource, as sent with this
   * object's provider calls (null of the schema's type when the module has none); absent
   * when the provider declares no provider meta schema. The apply sends it again.
   */
  readonly providerMeta?: Value;
  /** The paths of sensitive values in {@link after} (configuration marks and schema-sensitive attributes), for state's `sensitive_attributes` and rendering. */
  readonly afterSensitivePaths?: readonly Path[];
  /** The paths of sensitive values in {@link before}. */
  readonly beforeSensitivePaths?: readonly Path[];
}
