/**
 * Test support: changes made to the fake "behind the provider's back", with plain HTTP
 * requests in the services' own wire format (no AWS SDK), as another tool would make them.
 */

/** Calls one SSM JSON 1.1 action on the fake and returns the parsed answer; rejects on an HTTP error. */
export async function ssmCall(url: string, action: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": `AmazonSSM.${action}`,
      // A credential scope like the SDK's, so the fake records the region.
      authorization: "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/ssm/aws4_request, SignedHeaders=host, Signature=0",
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`SSM ${action} failed: HTTP ${res.status} ${text}`);
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
}
