/**
 * @packageDocumentation
 * A local fake AWS endpoint for conformance tests of the real `hashicorp/aws` provider:
 * SSM parameters and CloudWatch Logs log groups (JSON 1.1), EC2 Elastic IPs (EC2 Query)
 * and STS `GetCallerIdentity`, with a call log and fault injection.
 */
export { startFakeAws, FakeAwsService, ec2ErrorXml, queryErrorXml } from "./start-fake-aws.js";
export type { FakeAws, FakeAwsCall, FakeAwsOptions, FakeAwsState } from "./start-fake-aws.js";
export type { FaultOptions, InjectedError, InjectedFault, FaultEffect } from "./fault-injector.js";
export { FaultInjector } from "./fault-injector.js";
export { AwsError, isAwsError } from "./aws-error.js";
export { FakeAwsError, FakeAwsErrorCode, isFakeAwsError } from "./fake-aws-error.js";
export type { SsmParameter } from "./ssm-service.js";
export type { LogGroup } from "./logs-service.js";
export { LOG_RETENTION_DAYS } from "./logs-service.js";
export type { ElasticIp } from "./ec2-service.js";
export { parseQueryParams } from "./query-params.js";
export type { QueryTree, QueryValue } from "./query-params.js";
export { toXml } from "./xml-writer.js";
export type { XmlFields, XmlValue } from "./xml-writer.js";
