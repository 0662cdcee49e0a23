/**
 * How the fault-injecting provider misbehaves (environment variable `FAULT_MODE`).
 */
export const FaultMode = {
  /** A well-behaved provider. */
  Normal: "normal",
  /** Writes a Go-style `panic: …` with a goroutine trace to stderr and exits 2 during `FAULT_OP`. */
  Panic: "panic",
  /** Hangs in `FAULT_OP`, ignoring everything until StopProvider, then returns. */
  Hang: "hang",
  /** SIGKILLs itself in the middle of `FAULT_OP`. */
  Sigkill: "sigkill",
  /** Prints a line of garbage on stdout before the handshake. */
  GarbageStdout: "garbage_stdout",
  /** Prints the handshake line followed by extra lines on stdout (harmless: they are drained). */
  ExtraStdout: "extra_stdout",
  /** Expects another magic cookie: prints go-plugin's "This binary is a plugin" and exits 1. */
  WrongCookie: "wrong_cookie",
  /** Speaks only protocol 4: answers `1|4|unix|…` whatever was offered. */
  Protocol4: "protocol_4",
  /** Never prints the handshake line. */
  NoHandshake: "no_handshake",
  /** Deletes its socket file right before printing the handshake line. */
  DeleteSocket: "delete_socket",
} as const;

/** One of {@link FaultMode}. */
export type FaultMode = (typeof FaultMode)[keyof typeof FaultMode];

/**
 * The provider operations a fault can be attached to (`FAULT_OP`), named as in the
 * contract.
 */
export const FaultOperation = {
  GetSchema: "getSchema",
  Configure: "configure",
  PlanResourceChange: "planResourceChange",
  ApplyResourceChange: "applyResourceChange",
  ReadResource: "readResource",
  ReadDataSource: "readDataSource",
  ImportResourceState: "importResourceState",
  UpgradeResourceState: "upgradeResourceState",
} as const;

/** One of {@link FaultOperation}. */
export type FaultOperation = (typeof FaultOperation)[keyof typeof FaultOperation];

/** Whether `value` is one of {@link FaultMode}. */
export function isFaultMode(value: unknown): value is FaultMode {
  return typeof value === "string" && (Object.values(FaultMode) as string[]).includes(value);
}

/** Whether `value` is one of {@link FaultOperation}. */
export function isFaultOperation(value: unknown): value is FaultOperation {
  return typeof value === "string" && (Object.values(FaultOperation) as string[]).includes(value);
}
