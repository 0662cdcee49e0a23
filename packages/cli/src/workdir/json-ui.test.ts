import { JsonUi, jsonUiResource } from "./json-ui.js";

describe("jsonUiResource", () => {
  test("a root instance and a module instance with keys", () => {
    expect(jsonUiResource("random_id.p")).toEqual({ addr: "random_id.p", module: "", resource: "random_id.p", implied_provider: "random", resource_type: "random_id", resource_name: "p", resource_key: null });
    expect(jsonUiResource('module.m["a"].aws_s3_bucket.b[2]')).toEqual({
      addr: 'module.m["a"].aws_s3_bucket.b[2]',
      module: 'module.m["a"]',
      resource: "aws_s3_bucket.b[2]",
      implied_provider: "aws",
      resource_type: "aws_s3_bucket",
      resource_name: "b",
      resource_key: 2,
    });
  });
});

describe("JsonUi", () => {
  test("messages: @ fields first, the rest sorted as Go marshals them; the apply's outputs after its summary", () => {
    const lines: string[] = [];
    const ui = new JsonUi((l) => lines.push(l), () => new Date("2026-01-02T03:04:05.678Z"));
    ui.version();
    ui.event({ type: "outputs", outputs: { b: { sensitive: true, typeJson: '"string"' }, a: { sensitive: false, typeJson: '"number"', valueJson: "1" } } }, false);
    ui.event({ type: "change_summary", operation: "apply", add: 1, change: 0, import: 0, remove: 0, forget: 0 }, false);
    expect(lines).toEqual([
      '{"@level":"info","@message":"Terraform 1.11.4","@module":"terraform.ui","@timestamp":"2026-01-02T03:04:05.678000Z","terraform":"1.11.4","type":"version","ui":"1.2"}\n',
      '{"@level":"info","@message":"Apply complete! Resources: 1 added, 0 changed, 0 destroyed.","@module":"terraform.ui","@timestamp":"2026-01-02T03:04:05.678000Z","changes":{"add":1,"change":0,"import":0,"remove":0,"operation":"apply"},"type":"change_summary"}\n',
      '{"@level":"info","@message":"Outputs: 2","@module":"terraform.ui","@timestamp":"2026-01-02T03:04:05.678000Z","outputs":{"a":{"sensitive":false,"type":"number","value":1},"b":{"sensitive":true,"type":"string"}},"type":"outputs"}\n',
    ]);
  });
});
