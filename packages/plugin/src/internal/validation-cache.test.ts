import { Severity, type Diag } from "@magma/provider-api";
import { ValidationCache } from "./validation-cache.js";

describe("ValidationCache", () => {
  test("300 distinct 1 MiB configurations: keyed by digest, a few dozen KB held (the bytes were held whole before)", () => {
    const cache = new ValidationCache();
    const config = new Uint8Array(1024 * 1024);
    for (let i = 0; i < 300; i++) {
      config[0] = i & 0xff;
      config[1] = i >> 8;
      cache.set(cache.keyOf("r", "aws_thing", config), []);
    }
    expect(cache.size).toBe(300);
    expect(cache.retainedBytes).toBeLessThan(300 * 200);
    config[0] = 7;
    config[1] = 0;
    expect(cache.get(cache.keyOf("r", "aws_thing", config))).toEqual([]);
    expect(cache.get(cache.keyOf("d", "aws_thing", config))).toBeUndefined();
  });

  test("bounded in entries: the oldest go first", () => {
    const cache = new ValidationCache({ maxEntries: 3 });
    for (const k of ["a", "b", "c", "d"]) cache.set(k, []);
    expect(cache.size).toBe(3);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("d")).toEqual([]);
  });

  test("bounded in bytes: large warnings evict older entries; one larger than the bound is not kept", () => {
    const cache = new ValidationCache({ maxBytes: 100_000 });
    const warning = (n: number): Diag[] => [{ severity: Severity.Warning, summary: "w", detail: "x".repeat(n) }];
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, warning(10_000));
    expect(cache.retainedBytes).toBeLessThanOrEqual(100_000);
    expect(cache.size).toBeLessThan(10);
    expect(cache.get("k9")).toBeDefined();
    cache.set("huge", warning(200_000));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.get("k9")).toBeDefined();
  });
});
