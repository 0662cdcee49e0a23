/* eslint-disable no-restricted-syntax -- these describe two third-party modules, whose export is a default one */
// Types of the two test servers, which ship none (only what the tests use).
declare module "s3rver" {
  import type { AddressInfo } from "node:net";
  export default class S3rver {
    constructor(options: { port?: number; address?: string; silent?: boolean; directory: string; configureBuckets?: { name: string }[] });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
declare module "dynalite" {
  import type { Server } from "node:http";
  export default function dynalite(options?: { createTableMs?: number; deleteTableMs?: number; updateTableMs?: number; path?: string }): Server;
}
