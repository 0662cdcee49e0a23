import { hclResource } from "./terraform-oracle.js";

test("hclResource writes strings, numbers, bools and string maps, skipping null attributes", () => {
  expect(hclResource("aws_ssm_parameter", "p", { name: "/a/${x}", value: 'q"%{y}', n: 30, b: true, tags: { env: "dev", "a b": "c" }, description: null })).toBe(
    'resource "aws_ssm_parameter" "p" {\n  name = "/a/$${x}"\n  value = "q\\"%%{y}"\n  n = 30\n  b = true\n  tags = { "env" = "dev", "a b" = "c" }\n}\n',
  );
});

test("hclResource names the attribute it cannot write", () => {
  expect(() => hclResource("t", "n", { list: [1] })).toThrow("unsupported value at t.n.list");
});
