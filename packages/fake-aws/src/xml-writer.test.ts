import { escapeXml, escapeXmlAttribute, toXml } from "./xml-writer.js";

describe("toXml", () => {
  test("writes fields in order, lists as <item>, skips undefined and null", () => {
    const xml = toXml("DescribeAddressesResponse", "http://ec2.amazonaws.com/doc/2016-11-15/", {
      requestId: "r-1",
      addressesSet: [{ publicIp: "203.0.113.1", tagSet: [{ key: "k", value: "v" }], missing: undefined, nul: null }],
      return: true,
      count: 3,
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<DescribeAddressesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">' +
        "<requestId>r-1</requestId><addressesSet><item><publicIp>203.0.113.1</publicIp>" +
        "<tagSet><item><key>k</key><value>v</value></item></tagSet></item></addressesSet>" +
        "<return>true</return><count>3</count></DescribeAddressesResponse>",
    );
  });

  test("an empty list is an empty element", () => {
    expect(toXml("R", undefined, { set: [] })).toContain("<R><set></set></R>");
  });

  test("escapes markup in text", () => {
    expect(escapeXml(`a<b>&"c'`)).toBe(`a&lt;b&gt;&amp;"c'`);
    expect(escapeXmlAttribute(`a"<`)).toBe("a&quot;&lt;");
    expect(toXml("R", undefined, { v: "<x>&" })).toContain("<v>&lt;x&gt;&amp;</v>");
  });
});
