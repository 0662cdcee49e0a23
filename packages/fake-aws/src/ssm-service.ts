import { AwsError } from "./aws-error.js";
import { JsonInput, type JsonObject } from "./json-input.js";
import type { JsonHandler, ServiceContext } from "./service-context.js";

/** One SSM parameter as the fake stores it. */
export interface SsmParameter {
  /** The parameter name, e.g. `/app/db/host` or `plain-name`. */
  readonly name: string;
  /** `String`, `StringList` or `SecureString`. */
  readonly type: string;
  /** The plain-text value. */
  readonly value: string;
  /** Starts at 1, incremented on every overwrite. */
  readonly version: number;
  /** The description, or `undefined`. */
  readonly description: string | undefined;
  /** For `SecureString`: the KMS key id (default `alias/aws/ssm`). */
  readonly keyId: string | undefined;
  /** The allowed-pattern regex, or `undefined`. */
  readonly allowedPattern: string | undefined;
  /** `Standard` or `Advanced`. */
  readonly tier: string;
  /** `text`, `aws:ec2:image` or `aws:ssm:integration`. */
  readonly dataType: string;
  /** The parameter ARN. */
  readonly arn: string;
  /** Last modification time. */
  readonly lastModified: Date;
  /** Tags, key to value. */
  readonly tags: Readonly<Record<string, string>>;
}

const PARAMETER_TYPES = ["String", "StringList", "SecureString"];
const DATA_TYPES = ["text", "aws:ec2:image", "aws:ssm:integration"];
const NAME_PATTERN = /^[a-zA-Z0-9_.\-/]+$/;

/**
 * The in-memory SSM Parameter Store behind the `AmazonSSM.*` JSON 1.1 operations.
 * Not-found is answered as `ParameterNotFound` (400), as AWS does.
 */
export class SsmService {
  /** The X-Amz-Target prefix of this service. */
  static readonly targetPrefix = "AmazonSSM";
  readonly #ctx: ServiceContext;
  readonly #params = new Map<string, SsmParameter>();
  /** Operation name → handler. */
  readonly handlers: ReadonlyMap<string, JsonHandler>;

  /** @param ctx - account and region for ARNs. */
  constructor(ctx: ServiceContext) {
    this.#ctx = ctx;
    this.handlers = new Map<string, JsonHandler>([
      ["PutParameter", (i) => this.#putParameter(new JsonInput(i, "ValidationException"))],
      ["GetParameter", (i) => this.#getParameter(new JsonInput(i, "ValidationException"))],
      ["GetParameters", (i) => this.#getParameters(new JsonInput(i, "ValidationException"))],
      ["DescribeParameters", (i) => this.#describeParameters(new JsonInput(i, "ValidationException"))],
      ["DeleteParameter", (i) => this.#deleteParameter(new JsonInput(i, "ValidationException"))],
      ["DeleteParameters", (i) => this.#deleteParameters(new JsonInput(i, "ValidationException"))],
      ["AddTagsToResource", (i) => this.#addTags(new JsonInput(i, "ValidationException"))],
      ["RemoveTagsFromResource", (i) => this.#removeTags(new JsonInput(i, "ValidationException"))],
      ["ListTagsForResource", (i) => this.#listTags(new JsonInput(i, "ValidationException"))],
    ]);
  }

  /** A snapshot of all stored parameters, sorted by name. */
  parameters(): SsmParameter[] {
    return [...this.#params.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  #arn(name: string): string {
    const path = name.startsWith("/") ? name : `/${name}`;
    return `arn:aws:ssm:${this.#ctx.region}:${this.#ctx.accountId}:parameter${path}`;
  }

  /** Resolves a name or ARN (optionally with a `:version` selector, which must match the current version). */
  #find(nameOrArn: string): SsmParameter {
    let name = nameOrArn;
    const arnPrefix = `arn:aws:ssm:${this.#ctx.region}:${this.#ctx.accountId}:parameter`;
    if (name.startsWith("arn:")) {
      if (!name.startsWith(arnPrefix)) throw new AwsError("ParameterNotFound", "");
      name = name.slice(arnPrefix.length);
      if (!this.#params.has(name) && name.startsWith("/")) name = name.slice(1);
    }
    let selector: string | undefined;
    const colon = name.lastIndexOf(":");
    if (colon > 0) {
      selector = name.slice(colon + 1);
      name = name.slice(0, colon);
    }
    const p = this.#params.get(name);
    if (p === undefined) throw new AwsError("ParameterNotFound", "");
    if (selector !== undefined && String(p.version) !== selector) {
      throw new AwsError("ParameterVersionNotFound", `Systems Manager could not find version ${selector} of ${name}. Verify the version and try again.`);
    }
    return p;
  }

  #putParameter(input: JsonInput): JsonObject {
    const name = input.requiredString("Name");
    const value = input.requiredString("Value");
    if (name.length > 2048 || !NAME_PATTERN.test(name) || /^\/?(aws|ssm)/i.test(name)) {
      throw new AwsError("ValidationException", `Parameter name: can't be prefixed with "aws" or "ssm" (case-insensitive), and must contain only a-zA-Z0-9_.-/ (got '${name}').`);
    }
    const overwrite = input.boolean("Overwrite") ?? false;
    const tags = tagList(input.objectList("Tags"), "ValidationException");
    const existing = this.#params.get(name);
    if (overwrite && tags !== undefined && existing !== undefined) {
      throw new AwsError(
        "ValidationException",
        "Invalid request: tags and overwrite can't be used together. To create a parameter with tags, please remove overwrite flag. To update tags for an existing parameter, please use AddTagsToResource or RemoveTagsFromResource.",
      );
    }
    if (existing !== undefined && !overwrite) {
      throw new AwsError("ParameterAlreadyExists", "The parameter already exists. To overwrite this value, set the overwrite option in the request to true.");
    }
    const type = input.string("Type") ?? existing?.type;
    if (type === undefined) {
      throw new AwsError("ValidationException", "A parameter type is required when you create a parameter.");
    }
    if (!PARAMETER_TYPES.includes(type)) {
      throw new AwsError("ValidationException", `1 validation error detected: Value '${type}' at 'type' failed to satisfy constraint: Member must satisfy enum value set: [SecureString, StringList, String]`);
    }
    const dataType = input.string("DataType") ?? existing?.dataType ?? "text";
    if (!DATA_TYPES.includes(dataType)) {
      throw new AwsError("ValidationException", `The following data type is not supported: ${dataType} (Data type names are all lowercase.)`);
    }
    const allowedPattern = input.string("AllowedPattern") ?? existing?.allowedPattern;
    if (allowedPattern !== undefined && allowedPattern !== "") {
      let re: RegExp;
      try {
        re = new RegExp(`^(?:${allowedPattern})$`);
      } catch {
        throw new AwsError("InvalidAllowedPatternException", `The allowed pattern '${allowedPattern}' is not a valid regular expression.`);
      }
      if (!re.test(value)) {
        throw new AwsError("ParameterPatternMismatchException", `Parameter value, cannot be validated against allowedPattern: ${allowedPattern}`);
      }
    }
    let tier = input.string("Tier") ?? existing?.tier ?? "Standard";
    if (tier === "Intelligent-Tiering") tier = value.length > 4096 ? "Advanced" : (existing?.tier ?? "Standard");
    if (tier !== "Standard" && tier !== "Advanced") {
      throw new AwsError("ValidationException", `1 validation error detected: Value '${tier}' at 'tier' failed to satisfy constraint: Member must satisfy enum value set: [Standard, Advanced, Intelligent-Tiering]`);
    }
    if (tier === "Standard" && value.length > 4096) {
      throw new AwsError("ValidationException", "Standard tier parameters support a maximum parameter value of 4096 characters. To create a larger parameter value, upgrade the parameter to use the advanced-parameter tier.");
    }
    if (existing?.tier === "Advanced" && tier === "Standard") {
      throw new AwsError("ValidationException", "This parameter uses the advanced-parameter tier. You can't downgrade a parameter from the advanced-parameter tier to the standard-parameter tier.");
    }
    const description = input.string("Description") ?? existing?.description;
    const keyId = type === "SecureString" ? (input.string("KeyId") ?? existing?.keyId ?? "alias/aws/ssm") : undefined;
    const param: SsmParameter = {
      name,
      type,
      value,
      version: (existing?.version ?? 0) + 1,
      description,
      keyId,
      allowedPattern: allowedPattern === "" ? undefined : allowedPattern,
      tier,
      dataType,
      arn: this.#arn(name),
      lastModified: new Date(),
      tags: existing?.tags ?? tags ?? {},
    };
    this.#params.set(name, param);
    return { Version: param.version, Tier: param.tier };
  }

  #render(p: SsmParameter, decrypt: boolean): JsonObject {
    const value = p.type === "SecureString" && !decrypt ? fakeCiphertext(p.value) : p.value;
    return {
      Name: p.name,
      Type: p.type,
      Value: value,
      Version: p.version,
      LastModifiedDate: epochSeconds(p.lastModified),
      ARN: p.arn,
      DataType: p.dataType,
    };
  }

  #getParameter(input: JsonInput): JsonObject {
    const name = input.requiredString("Name");
    const p = this.#find(name);
    return { Parameter: this.#render(p, input.boolean("WithDecryption") ?? false) };
  }

  #getParameters(input: JsonInput): JsonObject {
    const names = input.stringList("Names") ?? [];
    if (names.length < 1 || names.length > 10) {
      throw new AwsError("ValidationException", "1 validation error detected: Value at 'names' failed to satisfy constraint: Member must have length between 1 and 10");
    }
    const decrypt = input.boolean("WithDecryption") ?? false;
    const found: JsonObject[] = [];
    const invalid: string[] = [];
    for (const n of names) {
      try {
        found.push(this.#render(this.#find(n), decrypt));
      } catch {
        invalid.push(n);
      }
    }
    return { Parameters: found, InvalidParameters: invalid };
  }

  #describeParameters(input: JsonInput): JsonObject {
    const predicates: ((p: SsmParameter) => boolean)[] = [];
    for (const f of input.objectList("Filters") ?? []) {
      const key = f.requiredString("Key");
      const values = f.stringList("Values") ?? [];
      predicates.push(filterPredicate(key, "Equals", values));
    }
    for (const f of input.objectList("ParameterFilters") ?? []) {
      const key = f.requiredString("Key");
      const option = f.string("Option") ?? "Equals";
      const values = f.stringList("Values") ?? [];
      predicates.push(filterPredicate(key, option, values));
    }
    const max = input.integer("MaxResults") ?? 50;
    if (max < 1 || max > 50) {
      throw new AwsError("ValidationException", "1 validation error detected: Value at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 50");
    }
    const matching = this.parameters().filter((p) => predicates.every((pred) => pred(p)));
    const start = decodeToken(input.string("NextToken"));
    const page = matching.slice(start, start + max);
    const out: JsonObject = {
      Parameters: page.map((p) => ({
        Name: p.name,
        ARN: p.arn,
        Type: p.type,
        ...(p.keyId === undefined ? {} : { KeyId: p.keyId }),
        LastModifiedDate: epochSeconds(p.lastModified),
        LastModifiedUser: `arn:aws:iam::${this.#ctx.accountId}:user/fake-aws`,
        ...(p.description === undefined ? {} : { Description: p.description }),
        ...(p.allowedPattern === undefined ? {} : { AllowedPattern: p.allowedPattern }),
        Version: p.version,
        Tier: p.tier,
        Policies: [],
        DataType: p.dataType,
      })),
    };
    if (start + max < matching.length) out["NextToken"] = encodeToken(start + max);
    return out;
  }

  #deleteParameter(input: JsonInput): JsonObject {
    const name = input.requiredString("Name");
    if (!this.#params.delete(name)) throw new AwsError("ParameterNotFound", "");
    return {};
  }

  #deleteParameters(input: JsonInput): JsonObject {
    const names = input.stringList("Names") ?? [];
    if (names.length < 1 || names.length > 10) {
      throw new AwsError("ValidationException", "1 validation error detected: Value at 'names' failed to satisfy constraint: Member must have length between 1 and 10");
    }
    const deleted: string[] = [];
    const invalid: string[] = [];
    for (const n of names) (this.#params.delete(n) ? deleted : invalid).push(n);
    return { DeletedParameters: deleted, InvalidParameters: invalid };
  }

  #taggable(input: JsonInput): SsmParameter {
    const type = input.requiredString("ResourceType");
    if (type !== "Parameter") {
      throw new AwsError("InvalidResourceType", `The resource type ${type} is not supported by this fake (only Parameter).`);
    }
    const id = input.requiredString("ResourceId");
    const p = this.#params.get(id);
    if (p === undefined) throw new AwsError("InvalidResourceId", `The resource ID "${id}" is not valid. Verify the ID and try again.`);
    return p;
  }

  #addTags(input: JsonInput): JsonObject {
    const p = this.#taggable(input);
    const tags = tagList(input.objectList("Tags"), "ValidationException") ?? {};
    this.#params.set(p.name, { ...p, tags: { ...p.tags, ...tags } });
    return {};
  }

  #removeTags(input: JsonInput): JsonObject {
    const p = this.#taggable(input);
    const next = { ...p.tags };
    for (const k of input.stringList("TagKeys") ?? []) delete next[k];
    this.#params.set(p.name, { ...p, tags: next });
    return {};
  }

  #listTags(input: JsonInput): JsonObject {
    const p = this.#taggable(input);
    return { TagList: Object.entries(p.tags).map(([Key, Value]) => ({ Key, Value })) };
  }
}

function tagList(list: JsonInput[] | undefined, code: string): Record<string, string> | undefined {
  if (list === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const t of list) {
    const key = t.string("Key");
    const value = t.string("Value");
    if (key === undefined || value === undefined) throw new AwsError(code, "Each tag must have a Key and a Value.");
    out[key] = value;
  }
  return out;
}

function filterPredicate(key: string, option: string, values: string[]): (p: SsmParameter) => boolean {
  const field = (p: SsmParameter): string | undefined => {
    switch (key) {
      case "Name":
        return p.name;
      case "Type":
        return p.type;
      case "KeyId":
        return p.keyId;
      case "Tier":
        return p.tier;
      case "DataType":
        return p.dataType;
      default:
        if (key.startsWith("tag:")) return p.tags[key.slice(4)];
        throw new AwsError("InvalidFilterKey", `The filter key ${key} is not supported by this fake.`);
    }
  };
  if (key.startsWith("tag:") && values.length === 0) return (p) => field(p) !== undefined;
  switch (option) {
    case "Equals":
      return (p) => {
        const v = field(p);
        return v !== undefined && values.includes(v);
      };
    case "BeginsWith":
      return (p) => {
        const v = field(p);
        return v !== undefined && values.some((x) => v.startsWith(x));
      };
    case "Contains":
      return (p) => {
        const v = field(p);
        return v !== undefined && values.some((x) => v.includes(x));
      };
    default:
      throw new AwsError("InvalidFilterOption", `The filter option ${option} is not valid for key ${key}.`);
  }
}

function fakeCiphertext(value: string): string {
  return Buffer.from(`fake-kms:${value}`).toString("base64");
}

/** JSON 1.1 timestamps are epoch seconds (with a fraction). */
export function epochSeconds(d: Date): number {
  return d.getTime() / 1000;
}

function encodeToken(n: number): string {
  return Buffer.from(`offset:${n}`).toString("base64");
}

function decodeToken(token: string | undefined): number {
  if (token === undefined || token === "") return 0;
  const m = /^offset:(\d+)$/.exec(Buffer.from(token, "base64").toString());
  if (m === null) throw new AwsError("InvalidNextToken", "The specified token isn't valid.");
  return Number(m[1]);
}
