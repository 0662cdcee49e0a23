// The plan-like value of the codec benchmarks: n objects of 12 attributes (strings, numbers,
// bools, a tags map(string), a list(string), a nested list of objects, some nulls and
// unknowns). Takes the cty module so that each benchmark builds values with the copy of cty
// whose codec it times.

/** Returns { value, type } for n objects, built with the given cty module. */
export function buildPlanValue(cty, n) {
  const {
    boolType, boolVal, listType, listVal, listValEmpty, mapType, mapVal, nullVal, numberType, numberVal,
    objectType, objectVal, stringType, stringVal, unknownVal,
  } = cty;
  const ruleType = objectType({
    from_port: numberType,
    to_port: numberType,
    protocol: stringType,
    cidr_blocks: listType(stringType),
  });
  const resourceType = objectType({
    id: stringType,
    arn: stringType,
    name: stringType,
    description: stringType,
    instance_count: numberType,
    cpu_ratio: numberType,
    enabled: boolType,
    private_ip: stringType,
    tags: mapType(stringType),
    security_groups: listType(stringType),
    ingress: listType(ruleType),
    volume_size: numberType,
  });
  const planType = listType(resourceType);

  function hexId(i, width) {
    return (i * 2654435761 >>> 0).toString(16).padStart(width, "0");
  }

  function buildValue(n) {
    const objects = [];
    for (let i = 0; i < n; i++) {
      const id = `i-${hexId(i, 8)}${hexId(i + 7, 9)}`;
      const tags = { Name: `web-${i}`, Environment: i % 2 === 0 ? "production" : "staging", Team: `team-${i % 17}` };
      if (i % 4 === 0) tags.CostCenter = `cc-${1000 + (i % 97)}`;
      const rules = [];
      for (let r = 0; r < 2; r++) {
        rules.push(
          objectVal({
            from_port: numberVal(r === 0 ? 443 : 8000 + (i % 100)),
            to_port: numberVal(r === 0 ? 443 : 8100 + (i % 100)),
            protocol: stringVal(r === 0 ? "tcp" : "udp"),
            cidr_blocks: r === 0 ? listVal([stringVal("10.0.0.0/16"), stringVal(`10.${i % 256}.0.0/24`)]) : listValEmpty(stringType),
          }),
        );
      }
      objects.push(
        objectVal({
          id: stringVal(id),
          arn: stringVal(`arn:aws:ec2:eu-west-1:123456789012:instance/${id}`),
          name: stringVal(`web-server-${i}`),
          description: i % 3 === 0 ? nullVal(stringType) : stringVal(`Web server number ${i} for the ${i % 2 === 0 ? "production" : "staging"} fleet`),
          instance_count: numberVal(i % 50),
          cpu_ratio: numberVal(0.25 + (i % 8) * 0.5),
          enabled: boolVal(i % 5 !== 0),
          private_ip: i % 5 === 0 ? unknownVal(stringType) : stringVal(`10.${(i >> 8) & 255}.${i & 255}.${(i * 7) & 255}`),
          tags: mapVal(Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, stringVal(v)]))),
          security_groups: listVal([stringVal(`sg-${hexId(i, 8)}`), stringVal(`sg-${hexId(i + 1, 8)}`)]),
          ingress: listVal(rules),
          volume_size: i % 7 === 0 ? unknownVal(numberType, { notNull: true }) : numberVal(8 + (i % 120) * 10),
        }),
      );
    }
    return listVal(objects);
  }

  return { value: buildValue(n), type: planType };
}
