import { readFileSync } from "node:fs";
import { startFakeAws } from "./index.js";

// The README's example is the region between the markers below, verbatim (dedented).
test("the README example runs", async () => {
  // readme-start
  const fake = await startFakeAws(); // http://127.0.0.1:<free port>
  try {
    fake.inject({ action: "DescribeAddresses", nth: 1, error: { code: "RequestLimitExceeded", status: 503 } });
    // ...point the provider's endpoints at fake.url and run terraform; here, one raw EC2 call:
    const res = await fetch(fake.url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "Action=DescribeAddresses&Version=2016-11-15",
    });
    expect(res.status).toBe(503);
    expect(fake.calls.map((c) => [c.action, c.errorCode])).toEqual([["DescribeAddresses", "RequestLimitExceeded"]]);
    expect(fake.unknownCalls()).toEqual([]);
    expect(fake.isEmpty()).toBe(true);
  } finally {
    await fake.close();
  }
  // readme-end
});

test("the README contains the example verbatim", () => {
  const self = readFileSync(new URL(import.meta.url), "utf8");
  const region = /\/\/ readme-start\n([\s\S]*?)\n\s*\/\/ readme-end/.exec(self)?.[1];
  expect(region).toBeDefined();
  const example = (region as string)
    .split("\n")
    .map((l) => l.replace(/^ {2}/, ""))
    .join("\n");
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  expect(readme).toContain(example);
});
