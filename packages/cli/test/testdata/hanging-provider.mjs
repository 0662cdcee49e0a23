// Test fixtures: providers that keep magma waiting. Each writes its process id to
// HANGING_PROVIDER_PIDFILE once it is where it hangs (so the test knows the provider is
// there and which process to look for), then never goes on and ignores cancellation: only
// closing or killing the process ends it.
import { writeFileSync } from "node:fs";
import { createRandomProvider } from "@magma/provider-random";

function reportPid() {
  const pidFile = process.env.HANGING_PROVIDER_PIDFILE;
  if (pidFile !== undefined) writeFileSync(pidFile, String(process.pid));
}

/** @magma/provider-random whose plan never answers. */
export function createProvider() {
  const random = createRandomProvider();
  return {
    ...random,
    planResourceChange() {
      reportPid();
      return new Promise(() => {});
    },
  };
}

/** A provider factory that never returns: the server never listens, no handshake is written. */
export function createStuckProvider() {
  setInterval(() => {}, 1 << 30); // a pending promise alone would let node exit
  reportPid();
  return new Promise(() => {});
}
