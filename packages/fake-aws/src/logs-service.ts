import { AwsError } from "./aws-error.js";
import { JsonInput, type JsonObject } from "./json-input.js";
import type { JsonHandler, ServiceContext } from "./service-context.js";

/** One CloudWatch Logs log group as the fake stores it. */
export interface LogGroup {
  /** The log group name. */
  readonly name: string;
  /** Creation time. */
  readonly creationTime: Date;
  /** Retention in days, or `undefined` for "never expire". */
  readonly retentionInDays: number | undefined;
  /** The KMS key ARN, or `undefined`. */
  readonly kmsKeyId: string | undefined;
  /** `STANDARD`, `INFREQUENT_ACCESS` or `DELIVERY`. */
  readonly logGroupClass: string;
  /** The ARN without the `:*` suffix. */
  readonly arn: string;
  /** Tags, key to value. */
  readonly tags: Readonly<Record<string, string>>;
}

/** The retention values CloudWatch Logs accepts. */
export const LOG_RETENTION_DAYS: readonly number[] = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];
const LOG_GROUP_CLASSES = ["STANDARD", "INFREQUENT_ACCESS", "DELIVERY"];
const NAME_PATTERN = /^[.\-_/#A-Za-z0-9]{1,512}$/;
const V = "InvalidParameterException";

/**
 * The in-memory CloudWatch Logs log groups behind the `Logs_20140328.*` JSON 1.1
 * operations. Not-found is `ResourceNotFoundException` (400).
 */
export class LogsService {
  /** The X-Amz-Target prefix of this service. */
  static readonly targetPrefix = "Logs_20140328";
  readonly #ctx: ServiceContext;
  readonly #groups = new Map<string, LogGroup>();
  /** Operation name → handler. */
  readonly handlers: ReadonlyMap<string, JsonHandler>;

  /** @param ctx - account and region for ARNs. */
  constructor(ctx: ServiceContext) {
    this.#ctx = ctx;
    const h = (f: (i: JsonInput) => JsonObject): JsonHandler => (i) => f(new JsonInput(i, V));
    this.handlers = new Map<string, JsonHandler>([
      ["CreateLogGroup", h((i) => this.#create(i))],
      ["DescribeLogGroups", h((i) => this.#describe(i))],
      ["DeleteLogGroup", h((i) => this.#delete(i))],
      ["PutRetentionPolicy", h((i) => this.#putRetention(i))],
      ["DeleteRetentionPolicy", h((i) => this.#deleteRetention(i))],
      ["ListTagsForResource", h((i) => ({ tags: { ...this.#byArn(i.requiredString("resourceArn")).tags } }))],
      ["TagResource", h((i) => this.#tag(this.#byArn(i.requiredString("resourceArn")), i.stringMap("tags") ?? {}))],
      ["UntagResource", h((i) => this.#untag(this.#byArn(i.requiredString("resourceArn")), i.stringList("tagKeys") ?? []))],
      ["ListTagsLogGroup", h((i) => ({ tags: { ...this.#byName(i.requiredString("logGroupName")).tags } }))],
      ["TagLogGroup", h((i) => this.#tag(this.#byName(i.requiredString("logGroupName")), i.stringMap("tags") ?? {}))],
      ["UntagLogGroup", h((i) => this.#untag(this.#byName(i.requiredString("logGroupName")), i.stringList("tags") ?? []))],
    ]);
  }

  /** A snapshot of all log groups, sorted by name. */
  logGroups(): LogGroup[] {
    return [...this.#groups.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  #byName(name: string): LogGroup {
    const g = this.#groups.get(name);
    if (g === undefined) throw new AwsError("ResourceNotFoundException", "The specified log group does not exist.");
    return g;
  }

  #byArn(arn: string): LogGroup {
    const prefix = `arn:aws:logs:${this.#ctx.region}:${this.#ctx.accountId}:log-group:`;
    if (!arn.startsWith(prefix)) {
      throw new AwsError(V, `Invalid resourceArn '${arn}': expected ${prefix}<name>.`);
    }
    const name = arn.slice(prefix.length);
    if (name.endsWith(":*")) {
      throw new AwsError(V, "The specified ARN must not end with ':*'.");
    }
    return this.#byName(name);
  }

  #create(i: JsonInput): JsonObject {
    const name = i.requiredString("logGroupName");
    if (!NAME_PATTERN.test(name)) {
      throw new AwsError(V, `1 validation error detected: Value '${name}' at 'logGroupName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\.\\-_/#A-Za-z0-9]+`);
    }
    const cls = i.string("logGroupClass") ?? "STANDARD";
    if (!LOG_GROUP_CLASSES.includes(cls)) {
      throw new AwsError(V, `1 validation error detected: Value '${cls}' at 'logGroupClass' failed to satisfy constraint: Member must satisfy enum value set: [STANDARD, INFREQUENT_ACCESS, DELIVERY]`);
    }
    if (this.#groups.has(name)) throw new AwsError("ResourceAlreadyExistsException", "The specified log group already exists");
    this.#groups.set(name, {
      name,
      creationTime: new Date(),
      retentionInDays: undefined,
      kmsKeyId: i.string("kmsKeyId"),
      logGroupClass: cls,
      arn: `arn:aws:logs:${this.#ctx.region}:${this.#ctx.accountId}:log-group:${name}`,
      tags: i.stringMap("tags") ?? {},
    });
    return {};
  }

  #describe(i: JsonInput): JsonObject {
    const prefix = i.string("logGroupNamePrefix");
    const pattern = i.string("logGroupNamePattern");
    const identifiers = i.stringList("logGroupIdentifiers");
    const cls = i.string("logGroupClass");
    if (prefix !== undefined && pattern !== undefined) {
      throw new AwsError(V, "LogGroupNamePrefix and LogGroupNamePattern are mutually exclusive parameters.");
    }
    const limit = i.integer("limit") ?? 50;
    if (limit < 1 || limit > 50) {
      throw new AwsError(V, "1 validation error detected: Value at 'limit' failed to satisfy constraint: Member must have value less than or equal to 50");
    }
    const matching = this.logGroups().filter(
      (g) =>
        (prefix === undefined || g.name.startsWith(prefix)) &&
        (pattern === undefined || g.name.toLowerCase().includes(pattern.toLowerCase())) &&
        (identifiers === undefined || identifiers.includes(g.name) || identifiers.includes(g.arn)) &&
        (cls === undefined || g.logGroupClass === cls),
    );
    const token = i.string("nextToken");
    let start = 0;
    if (token !== undefined) {
      const m = /^after:(.*)$/.exec(Buffer.from(token, "base64").toString());
      if (m === null) throw new AwsError(V, "The specified nextToken is invalid.");
      const after = m[1] as string;
      start = matching.findIndex((g) => g.name > after);
      if (start < 0) start = matching.length;
    }
    const page = matching.slice(start, start + limit);
    const out: JsonObject = {
      logGroups: page.map((g) => ({
        logGroupName: g.name,
        creationTime: g.creationTime.getTime(),
        ...(g.retentionInDays === undefined ? {} : { retentionInDays: g.retentionInDays }),
        metricFilterCount: 0,
        arn: `${g.arn}:*`,
        storedBytes: 0,
        ...(g.kmsKeyId === undefined ? {} : { kmsKeyId: g.kmsKeyId }),
        logGroupClass: g.logGroupClass,
        logGroupArn: g.arn,
      })),
    };
    const last = page[page.length - 1];
    if (start + limit < matching.length && last !== undefined) {
      out["nextToken"] = Buffer.from(`after:${last.name}`).toString("base64");
    }
    return out;
  }

  #delete(i: JsonInput): JsonObject {
    const g = this.#byName(i.requiredString("logGroupName"));
    this.#groups.delete(g.name);
    return {};
  }

  #putRetention(i: JsonInput): JsonObject {
    const name = i.requiredString("logGroupName");
    const days = i.integer("retentionInDays");
    if (days === undefined || !LOG_RETENTION_DAYS.includes(days)) {
      throw new AwsError(V, `1 validation error detected: Value '${String(days)}' at 'retentionInDays' failed to satisfy constraint: Member must satisfy enum value set: [${LOG_RETENTION_DAYS.join(", ")}]`);
    }
    const g = this.#byName(name);
    this.#groups.set(g.name, { ...g, retentionInDays: days });
    return {};
  }

  #deleteRetention(i: JsonInput): JsonObject {
    const g = this.#byName(i.requiredString("logGroupName"));
    this.#groups.set(g.name, { ...g, retentionInDays: undefined });
    return {};
  }

  #tag(g: LogGroup, tags: Record<string, string>): JsonObject {
    this.#groups.set(g.name, { ...g, tags: { ...g.tags, ...tags } });
    return {};
  }

  #untag(g: LogGroup, keys: string[]): JsonObject {
    const next = { ...g.tags };
    for (const k of keys) delete next[k];
    this.#groups.set(g.name, { ...g, tags: next });
    return {};
  }
}
