import { handleFatalInterrupt, onFatalInterrupt } from "./fatal-interrupt.js";

describe("fatal interrupt handlers", () => {
  test("none installed: not handled; installed: run; removed: not handled again", () => {
    expect(handleFatalInterrupt()).toBe(false);
    const calls: string[] = [];
    const remove = onFatalInterrupt(() => calls.push("a"));
    expect(handleFatalInterrupt()).toBe(true);
    expect(calls).toEqual(["a"]);
    remove();
    expect(handleFatalInterrupt()).toBe(false);
    expect(calls).toEqual(["a"]);
  });

  test("a later handler replaces an earlier one, whose removal then leaves it in place", () => {
    const calls: string[] = [];
    const removeA = onFatalInterrupt(() => calls.push("a"));
    const removeB = onFatalInterrupt(() => calls.push("b"));
    removeA();
    expect(handleFatalInterrupt()).toBe(true);
    expect(calls).toEqual(["b"]);
    removeB();
    expect(handleFatalInterrupt()).toBe(false);
  });
});
