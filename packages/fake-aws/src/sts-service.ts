import type { QueryHandler, ServiceContext } from "./service-context.js";

/**
 * STS over the AWS Query protocol (version 2011-06-15): only `GetCallerIdentity`, which
 * the provider calls when `skip_requesting_account_id` / `skip_credentials_validation`
 * are not set.
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
    ]);
  }
}
