import { AwsError } from "./aws-error.js";
import { queryString, queryStringList, queryStructList, type QueryTree } from "./query-params.js";
import type { QueryHandler, ServiceContext } from "./service-context.js";
import type { XmlFields } from "./xml-writer.js";

/** One Elastic IP address as the fake stores it. */
export interface ElasticIp {
  /** `eipalloc-` followed by 17 hex digits. */
  readonly allocationId: string;
  /** The public IPv4 address, from 203.0.113.0/24 then 198.51.100.0/24. */
  readonly publicIp: string;
  /** `vpc` or `standard`. */
  readonly domain: string;
  /** The public IPv4 pool (`amazon`). */
  readonly publicIpv4Pool: string;
  /** The network border group (the region). */
  readonly networkBorderGroup: string;
  /** Tags, key to value. */
  readonly tags: Readonly<Record<string, string>>;
}

const POOLS = ["203.0.113.", "198.51.100."];

/** The supported EC2 `DescribeAddresses` filter names. */
const ADDRESS_FILTERS = ["allocation-id", "public-ip", "domain", "network-border-group", "public-ipv4-pool", "tag-key"];

/**
 * The in-memory EC2 Elastic IPs behind the EC2 Query API (version 2016-11-15).
 * Not-found is `InvalidAllocationID.NotFound` / `InvalidAddress.NotFound` (400).
 */
export class Ec2Service {
  /** The XML namespace of EC2 responses. */
  static readonly namespace = "http://ec2.amazonaws.com/doc/2016-11-15/";
  /** The API version the SDKs send. */
  static readonly apiVersion = "2016-11-15";
  readonly #ctx: ServiceContext;
  readonly #addresses = new Map<string, ElasticIp>();
  #nextIp = 0;
  /** Operation name → handler. */
  readonly handlers: ReadonlyMap<string, QueryHandler>;

  /** @param ctx - account and region. */
  constructor(ctx: ServiceContext) {
    this.#ctx = ctx;
    const h = (f: (q: QueryTree) => XmlFields): QueryHandler => (q) => {
      if (queryString(q, "DryRun") === "true") {
        throw new AwsError("DryRunOperation", "Request would have succeeded, but DryRun flag is set.", 412);
      }
      return f(q);
    };
    this.handlers = new Map<string, QueryHandler>([
      ["AllocateAddress", h((q) => this.#allocate(q))],
      ["DescribeAddresses", h((q) => this.#describe(q))],
      ["DescribeAddressesAttribute", h((q) => this.#describeAttribute(q))],
      ["ReleaseAddress", h((q) => this.#release(q))],
      ["CreateTags", h((q) => this.#createTags(q))],
      ["DeleteTags", h((q) => this.#deleteTags(q))],
      ["DescribeAccountAttributes", h((q) => this.#accountAttributes(q))],
    ]);
  }

  /** A snapshot of all allocated addresses, in allocation order. */
  addresses(): ElasticIp[] {
    return [...this.#addresses.values()];
  }

  #get(allocationId: string): ElasticIp {
    const a = this.#addresses.get(allocationId);
    if (a === undefined) {
      if (!/^eipalloc-[0-9a-f]+$/.test(allocationId)) {
        throw new AwsError("InvalidAllocationID.Malformed", `Invalid id: "${allocationId}" (expecting "eipalloc-...")`);
      }
      throw new AwsError("InvalidAllocationID.NotFound", `The allocation ID '${allocationId}' does not exist`);
    }
    return a;
  }

  #allocate(q: QueryTree): XmlFields {
    const domain = queryString(q, "Domain") ?? "vpc";
    if (domain !== "vpc" && domain !== "standard") {
      throw new AwsError("InvalidParameterValue", `Invalid value '${domain}' for domain.`);
    }
    const tags: Record<string, string> = {};
    for (const spec of queryStructList(q, "TagSpecification")) {
      const type = queryString(spec, "ResourceType");
      if (type !== "elastic-ip") {
        throw new AwsError("InvalidParameterValue", `'${String(type)}' is not a valid taggable resource type for this operation.`);
      }
      Object.assign(tags, readTags(spec));
    }
    const index = this.#nextIp++;
    const pool = POOLS[Math.floor(index / 254)];
    if (pool === undefined) {
      throw new AwsError("AddressLimitExceeded", "The maximum number of addresses has been reached.");
    }
    const publicIp = `${pool}${(index % 254) + 1}`;
    const address: ElasticIp = {
      allocationId: `eipalloc-${hexId(17)}`,
      publicIp,
      domain,
      publicIpv4Pool: queryString(q, "PublicIpv4Pool") ?? "amazon",
      networkBorderGroup: queryString(q, "NetworkBorderGroup") ?? this.#ctx.region,
      tags,
    };
    this.#addresses.set(address.allocationId, address);
    return {
      publicIp: address.publicIp,
      domain: address.domain,
      allocationId: address.allocationId,
      publicIpv4Pool: address.publicIpv4Pool,
      networkBorderGroup: address.networkBorderGroup,
    };
  }

  #describe(q: QueryTree): XmlFields {
    const ids = queryStringList(q, "AllocationId");
    const ips = queryStringList(q, "PublicIp");
    let result = this.addresses();
    if (ids.length > 0) {
      for (const id of ids) this.#get(id);
      result = result.filter((a) => ids.includes(a.allocationId));
    }
    if (ips.length > 0) {
      for (const ip of ips) {
        if (!result.some((a) => a.publicIp === ip)) {
          throw new AwsError("InvalidAddress.NotFound", `Address '${ip}' not found.`);
        }
      }
      result = result.filter((a) => ips.includes(a.publicIp));
    }
    for (const f of queryStructList(q, "Filter")) {
      const name = queryString(f, "Name");
      const values = queryStringList(f, "Value");
      if (name === undefined) throw new AwsError("InvalidParameterValue", "Filter is missing a Name.");
      result = result.filter((a) => matchesFilter(a, name, values));
    }
    return {
      addressesSet: result.map((a) => ({
        publicIp: a.publicIp,
        allocationId: a.allocationId,
        domain: a.domain,
        publicIpv4Pool: a.publicIpv4Pool,
        networkBorderGroup: a.networkBorderGroup,
        tagSet: tagSet(a.tags),
      })),
    };
  }

  #describeAttribute(q: QueryTree): XmlFields {
    const attribute = queryString(q, "Attribute");
    if (attribute !== undefined && attribute !== "domain-name") {
      throw new AwsError("InvalidParameterValue", `Value (${attribute}) for parameter attribute is invalid. Expected: 'domain-name'.`);
    }
    const ids = queryStringList(q, "AllocationId");
    const list = ids.length > 0 ? ids.map((id) => this.#get(id)) : this.addresses();
    return { addressSet: list.map((a) => ({ publicIp: a.publicIp, allocationId: a.allocationId })) };
  }

  #release(q: QueryTree): XmlFields {
    const id = queryString(q, "AllocationId");
    const ip = queryString(q, "PublicIp");
    if (id !== undefined) {
      this.#addresses.delete(this.#get(id).allocationId);
    } else if (ip !== undefined) {
      const a = this.addresses().find((x) => x.publicIp === ip);
      if (a === undefined) throw new AwsError("InvalidAddress.NotFound", `Address '${ip}' not found.`);
      this.#addresses.delete(a.allocationId);
    } else {
      throw new AwsError("MissingParameter", "Either public IP or allocation id must be specified");
    }
    return { return: true };
  }

  #resources(q: QueryTree): ElasticIp[] {
    const ids = queryStringList(q, "ResourceId");
    if (ids.length === 0) throw new AwsError("MissingParameter", "The request must contain the parameter resourceIdSet");
    return ids.map((id) => {
      if (!id.startsWith("eipalloc-")) {
        throw new AwsError("InvalidID", `The ID '${id}' is not valid (this fake only tags Elastic IPs).`);
      }
      return this.#get(id);
    });
  }

  #createTags(q: QueryTree): XmlFields {
    const resources = this.#resources(q);
    const tags = readTags(q);
    for (const a of resources) this.#addresses.set(a.allocationId, { ...a, tags: { ...a.tags, ...tags } });
    return { return: true };
  }

  #deleteTags(q: QueryTree): XmlFields {
    const resources = this.#resources(q);
    const specs = queryStructList(q, "Tag");
    for (const a of resources) {
      const next = { ...a.tags };
      if (specs.length === 0) for (const k of Object.keys(next)) delete next[k];
      for (const t of specs) {
        const key = queryString(t, "Key");
        const value = queryString(t, "Value");
        if (key === undefined) throw new AwsError("MissingParameter", "A tag in DeleteTags is missing its Key.");
        if (value === undefined || next[key] === value) delete next[key];
      }
      this.#addresses.set(a.allocationId, { ...a, tags: next });
    }
    return { return: true };
  }

  #accountAttributes(q: QueryTree): XmlFields {
    const all: Record<string, string[]> = {
      "supported-platforms": ["VPC"],
      "default-vpc": ["none"],
      "max-instances": ["20"],
      "vpc-max-security-groups-per-interface": ["5"],
      "max-elastic-ips": ["5"],
      "vpc-max-elastic-ips": ["5"],
    };
    const names = queryStringList(q, "AttributeName");
    const selected = names.length > 0 ? names : Object.keys(all);
    return {
      accountAttributeSet: selected.map((name) => {
        const values = all[name];
        if (values === undefined) throw new AwsError("InvalidParameterValue", `Value (${name}) for parameter attributeName is invalid.`);
        return { attributeName: name, attributeValueSet: values.map((v) => ({ attributeValue: v })) };
      }),
    };
  }
}

function readTags(q: QueryTree): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of queryStructList(q, "Tag")) {
    const key = queryString(t, "Key");
    if (key === undefined) throw new AwsError("InvalidParameterValue", "Tag is missing its Key.");
    if (key.toLowerCase().startsWith("aws:")) throw new AwsError("InvalidParameterValue", "Tag keys starting with 'aws:' are reserved for internal use");
    out[key] = queryString(t, "Value") ?? "";
  }
  return out;
}

function tagSet(tags: Readonly<Record<string, string>>): XmlFields[] | undefined {
  const entries = Object.entries(tags);
  return entries.length === 0 ? undefined : entries.map(([key, value]) => ({ key, value }));
}

function matchesFilter(a: ElasticIp, name: string, values: string[]): boolean {
  if (name.startsWith("tag:")) {
    const v = a.tags[name.slice(4)];
    return v !== undefined && values.includes(v);
  }
  switch (name) {
    case "allocation-id":
      return values.includes(a.allocationId);
    case "public-ip":
      return values.includes(a.publicIp);
    case "domain":
      return values.includes(a.domain);
    case "network-border-group":
      return values.includes(a.networkBorderGroup);
    case "public-ipv4-pool":
      return values.includes(a.publicIpv4Pool);
    case "tag-key":
      return values.some((k) => k in a.tags);
    default:
      throw new AwsError("InvalidParameterValue", `The filter '${name}' is invalid (supported: ${ADDRESS_FILTERS.join(", ")}, tag:<key>).`);
  }
}

function hexId(digits: number): string {
  let s = "";
  for (let i = 0; i < digits; i++) s += Math.floor(Math.random() * 16).toString(16);
  return s;
}
