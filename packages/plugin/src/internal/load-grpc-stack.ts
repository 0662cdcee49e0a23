import type * as grpcStack from "./grpc-stack.js";

/**
 * The gRPC half of this package (see `grpc-stack.ts`), as a module namespace.
 *
 * @internal
 */
export type GrpcStack = typeof grpcStack;

let loading: Promise<GrpcStack> | undefined;

/**
 * Imports the gRPC stack once per process (connect-rpc, protobuf-es, the tfplugin
 * descriptors: ~15 MiB of RSS and tens of milliseconds of module loading). A launch calls it
 * right after spawning the provider binary, so the import overlaps the provider's start-up;
 * a process that only runs native providers never calls it. A failed import is not
 * remembered: the next call tries again.
 *
 * @internal
 */
export function loadGrpcStack(): Promise<GrpcStack> {
  loading ??= import("./grpc-stack.js").catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}
