import { timestampFromProto, timestampToProto } from "./timestamp.js";

describe("timestamps", () => {
  test("round-trip to the millisecond, nanos never negative", () => {
    for (const ms of [0, 1, 999, 1_700_000_000_123, -1, -1001]) {
      const ts = timestampToProto(new Date(ms));
      expect(ts.nanos).toBeGreaterThanOrEqual(0);
      expect(ts.nanos).toBeLessThan(1e9);
      expect(timestampFromProto(ts)!.getTime()).toBe(ms);
    }
    expect(timestampFromProto(undefined)).toBeUndefined();
    expect(timestampFromProto({ seconds: 10n, nanos: 999_999_999 })!.getTime()).toBe(10_999);
  });
});
