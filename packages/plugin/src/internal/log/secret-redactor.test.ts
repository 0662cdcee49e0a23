import { boolType, boolVal, listType, listVal, objectVal, stringType, stringVal } from "@magma/cty";
import type { Block } from "@magma/provider-api";
import { reportableTail, SecretRedactor } from "./secret-redactor.js";

const block: Block = {
  attributes: {
    name: { type: stringType, required: true },
    value: { type: stringType, optional: true, sensitive: true },
    nested: { nestedType: { nesting: "list", attributes: { password: { type: stringType, optional: true, sensitive: true }, user: { type: stringType, optional: true } } }, optional: true },
  },
  blockTypes: {
    login: { nesting: "list", block: { attributes: { token: { type: stringType, optional: true, sensitive: true }, enabled: { type: boolType, optional: true } } } },
  },
};

describe("SecretRedactor", () => {
  test("remembers sensitive values at every depth (attributes, nested attributes, nested blocks) and redacts them, also JSON-escaped", () => {
    const r = new SecretRedactor();
    const v = objectVal({
      name: stringVal("public-name"),
      value: stringVal('s3cret"value'),
      nested: listVal([objectVal({ password: stringVal("hunter2-nested"), user: stringVal("alice") })]),
      login: listVal([objectVal({ token: stringVal("tok-abcdef"), enabled: boolVal(true) })]),
    });
    r.rememberSensitive(block, v);
    expect(r.size).toBe(3);
    const text = `name=public-name value=s3cret"value {"v":"s3cret\\"value"} pw=hunter2-nested user=alice t=tok-abcdef`;
    expect(r.redact(text)).toBe(`name=public-name value=[redacted] {"v":"[redacted]"} pw=[redacted] user=alice t=[redacted]`);
  });

  test("provider configuration: sensitive and credential-named fields are secrets, others are not", () => {
    const r = new SecretRedactor();
    const pb: Block = { attributes: { region: { type: stringType, optional: true }, access_key: { type: stringType, optional: true }, secret_key: { type: stringType, optional: true } } };
    r.rememberProviderConfig(pb, objectVal({ region: stringVal("us-east-1"), access_key: stringVal("my-access"), secret_key: stringVal("my-secret-key") }));
    expect(r.redact("us-east-1 my-access my-secret-key")).toBe("us-east-1 [redacted] [redacted]");
  });

  test("a block without sensitive attributes is not walked", () => {
    const r = new SecretRedactor();
    r.rememberSensitive({ attributes: { a: { type: listType(stringType), optional: true } } }, objectVal({ a: listVal([stringVal("xyzzy")]) }));
    expect(r.size).toBe(0);
  });

  test.each([
    ["an AWS access key id", "using AKIAIOSFODNN7EXAMPLE for s3", "using [redacted access key id] for s3"],
    ["a temporary key id", "key ASIAXYZXYZXYZXYZ1234", "key [redacted access key id]"],
    ["an Authorization header", "Authorization: AWS4-HMAC-SHA256 Credential=x/y, Signature=abc\nnext", "Authorization: [redacted]\nnext"],
    ["a JSON authorization field", `{"http.request.header.authorization":"AWS4 Credential=abc","x":1}`, `{"http.request.header.authorization":"[redacted]","x":1}`],
    ["a request body field", `{"http.request.body":"{\\"Value\\":\\"v\\"}","y":2}`, `{"http.request.body":"[redacted]","y":2}`],
    ["a secret key assignment", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG", "aws_secret_access_key=[redacted]"],
    ["a security token header", "X-Amz-Security-Token: FQoGZXIvYXdzE", "X-Amz-Security-Token: [redacted]"],
    ["a plain body dump", "Request Body: {\"Value\":\"x\"}", "Request Body: [redacted]"],
  ])("redacts %s", (_what, input, expected) => {
    expect(new SecretRedactor().redact(input)).toBe(expected);
  });

  test("reportableTail keeps warnings, errors and plain lines; drops TRACE/DEBUG/INFO lines, JSON or plain", () => {
    const tail = [
      `{"@level":"debug","@message":"HTTP Request Sent","http.request.body":"x"}`,
      `{"@level":"error","@message":"failed"}`,
      `2026/01/02 03:04:05 [DEBUG] sending request`,
      `[INFO] hello`,
      `[WARN] careful`,
      `panic: boom`,
      `This binary is a plugin.`,
    ].join("\n");
    expect(reportableTail(tail)).toBe([`{"@level":"error","@message":"failed"}`, `[WARN] careful`, `panic: boom`, `This binary is a plugin.`].join("\n"));
  });
});
