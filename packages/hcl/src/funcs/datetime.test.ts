// Expected values from terraform 1.11.4 (see testdata/corpus/datetime.json).
import { stringVal } from "@magma/cty";
import { call, callError } from "./test-support/call.js";

const s = stringVal;

describe("date and time functions", () => {
  it("formats dates with formatdate's verbs and quoted literals", () => {
    expect(call("formatdate", s("EEE, DD MMM YYYY hh:mm:ss ZZZ"), s("2018-01-02T23:12:01-08:00")).asString()).toBe("Tue, 02 Jan 2018 23:12:01 -0800");
    expect(call("formatdate", s("'It''s' YYYY"), s("2018-01-02T23:12:01Z")).asString()).toBe("It's 2018");
    expect(call("formatdate", s("H:m:s AA"), s("2018-01-02T00:02:03Z")).asString()).toBe("12:2:3 AM");
    expect(callError("formatdate", s("YYY"), s("2018-01-02T23:12:01Z"))).toMatchObject({ message: 'invalid date format verb "YYY": year must either be "YY" or "YYYY"' });
  });

  it("parses RFC 3339 with go-cty's messages", () => {
    expect(callError("formatdate", s("YYYY"), s("2018-13-02T23:12:01Z"))).toMatchObject({
      message: 'not a valid RFC3339 timestamp: cannot use "-02T23:12:01Z" as month',
    });
    expect(callError("formatdate", s("YYYY"), s("2018-01-02T23:12:01"))).toMatchObject({ message: "not a valid RFC3339 timestamp: end of string before UTC offset" });
    expect(callError("formatdate", s("YYYY"), s("2018-02-30T23:12:01Z"))).toMatchObject({ message: "not a valid RFC3339 timestamp: day out of range" });
  });

  it("adds durations and compares instants", () => {
    expect(call("timeadd", s("2017-11-22T00:00:00Z"), s("-1h30m")).asString()).toBe("2017-11-21T22:30:00Z");
    expect(call("timeadd", s("2017-11-22T00:00:00+02:00"), s("24h")).asString()).toBe("2017-11-23T00:00:00+02:00");
    expect(callError("timeadd", s("2017-11-22T00:00:00Z"), s("1d"))).toEqual({ name: "FunctionError", message: 'time: unknown unit "d" in duration "1d"' });
    expect(call("timecmp", s("2017-11-22T01:00:00+01:00"), s("2017-11-22T00:00:00Z")).asNumber().toString()).toBe("0");
  });

  it("gives the current time without fractional seconds", () => {
    expect(call("timestamp").asString()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});
