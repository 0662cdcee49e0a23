import { sharedSignal } from "./shared-signal.js";

// That it lifts node's listener limit is checked in a child process (test/no-listener-warning.test.ts):
// the warning is a process warning, which a test's sandbox does not see.
test("the shared signal is the engine's own and follows the caller's", () => {
  expect(sharedSignal(undefined)).toBeUndefined();
  const controller = new AbortController();
  const shared = sharedSignal(controller.signal)!;
  expect(shared).not.toBe(controller.signal);
  let heard = 0;
  for (let i = 0; i < 30; i++) shared.addEventListener("abort", () => void heard++, { once: true });
  expect(shared.aborted).toBe(false);
  controller.abort(new Error("stop"));
  expect(shared.aborted).toBe(true);
  expect((shared.reason as Error).message).toBe("stop");
  expect(heard).toBe(30);
});

test("a signal already aborted gives an aborted shared signal", () => {
  const controller = new AbortController();
  controller.abort(new Error("early"));
  const shared = sharedSignal(controller.signal)!;
  expect(shared.aborted).toBe(true);
  expect((shared.reason as Error).message).toBe("early");
});
