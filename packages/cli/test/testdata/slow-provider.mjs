// Test fixture: @magma/provider-random whose creates take SLOW_PROVIDER_MS milliseconds
// (default 3000), so that a terminal test can press Ctrl-C while an apply is in flight. The
// provider writes its process id to SLOW_PROVIDER_PIDFILE (one line per process) so the test
// can make sure no provider process outlives it.
import { appendFileSync } from "node:fs";
import { createRandomProvider } from "@magma/provider-random";

/** provider-random with slow creates. */
export function createProvider() {
  const pidFile = process.env.SLOW_PROVIDER_PIDFILE;
  if (pidFile !== undefined && pidFile !== "") appendFileSync(pidFile, `${process.pid}\n`);
  const ms = Number(process.env.SLOW_PROVIDER_MS ?? "3000");
  const random = createRandomProvider();
  return {
    ...random,
    async applyResourceChange(typeName, priorState, plannedState, config, options) {
      if (priorState.isNull() && !plannedState.isNull()) await new Promise((r) => setTimeout(r, ms));
      return random.applyResourceChange(typeName, priorState, plannedState, config, options);
    },
  };
}
