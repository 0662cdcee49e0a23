import { randomBytes } from "node:crypto";
import { AwsError } from "./aws-error.js";
import type { QueryTree } from "./query-params.js";
import type { QueryHandler, ServiceContext } from "./service-context.js";
import type { XmlFields } from "./xml-writer.js";

/**
 * STS over the AWS Query protocol (version 2011-06-15): `GetCallerIdentity` (which the
 * provider and the s3 backend call unless `skip_requesting_account_id` /
 * `skip_credentials_validation` are set), and `AssumeRole` / `AssumeRoleWithWebIdentity`,
 * which hand out fresh temporary credentials (`ASIA…`) for any role ARN (a web identity
 * token must be non-empty; nothing is verified).
 */
export class StsService {
  /** The XML namespace of STS responses. */
  static readonly namespace = "https://sts.amazonaws.com/doc/2011-06-15/";
  /** The API version the SDKs send. */
  static readonly apiVersion = "2011-06-15";
  /** Operation name → handler. */
  readonly handlers: ReadonlyMap<string, QueryHandler>;

  /** @param ctx - account id returned as the caller's. */
  constructor(ctx: ServiceContext) {
    this.handlers = new Map<string, QueryHandler>([
      [
        "GetCallerIdentity",
        () => ({
          Arn: `arn:aws:iam::${ctx.accountId}:user/fake-aws`,
          UserId: "AIDAFAKEAWS000000000",
          Account: ctx.accountId,
        }),
      ],
      ["AssumeRole", (p) => ({ ...assumed(p, ctx), PackedPolicySize: 0 })],
      ["AssumeRoleWithWebIdentity", (p) => ({ ...assumed(p, ctx), SubjectFromWebIdentityToken: "fake-aws-subject", Audience: "sts.amazonaws.com" })],
    ]);
  }
}

function assumed(p: QueryTree, ctx: ServiceContext): XmlFields {
  const role = typeof p["RoleArn"] === "string" ? p["RoleArn"] : "";
  const session = typeof p["RoleSessionName"] === "string" ? p["RoleSessionName"] : "";
  if (!/^arn:aws[a-z-]*:iam::\d{12}:role\/.+/.test(role)) throw new AwsError("ValidationError", `${JSON.stringify(role)} is not a valid role ARN`);
  if (session === "") throw new AwsError("ValidationError", "1 validation error detected: Value null at 'roleSessionName' failed to satisfy constraint: Member must not be null");
  if (p["WebIdentityToken"] !== undefined && p["WebIdentityToken"] === "") throw new AwsError("InvalidIdentityToken", "The web identity token is empty");
  const name = role.slice(role.indexOf(":role/") + 6);
  const seconds = typeof p["DurationSeconds"] === "string" ? Number(p["DurationSeconds"]) : 3600;
  return {
    Credentials: {
      AccessKeyId: `ASIA${randomBytes(8).toString("hex").toUpperCase()}`,
      SecretAccessKey: randomBytes(20).toString("base64"),
      SessionToken: randomBytes(32).toString("base64"),
      Expiration: new Date(Date.now() + seconds * 1000).toISOString(),
    },
    AssumedRoleUser: { Arn: `arn:aws:sts::${ctx.accountId}:assumed-role/${name}/${session}`, AssumedRoleId: `AROAFAKEAWS000000000:${session}` },
  };
}
