import { Mark, Path, nullVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { configValue } from "./config-value.js";
import { createNativeProvider } from "./native-provider.js";
import { isProviderError } from "./provider-error.js";
import { createSchemaEntry, impliedType, type Block } from "./schema.js";
import { containsWriteOnly, mapWriteOnlyAttributes, nonNullWriteOnlyPaths, stripWriteOnlyAttributes, writeOnlyPaths } from "./write-only.js";

const str = stringType;
const cred: Block = { attributes: { user: { type: str, optional: true }, password_wo: { type: str, optional: true, writeOnly: true } } };
const block: Block = {
  attributes: {
    id: { type: str, computed: true },
    secret_wo: { type: str, optional: true, writeOnly: true },
    plain: { type: str, optional: true },
    login: { optional: true, nestedType: { nesting: "single", attributes: { user: { type: str, optional: true }, token_wo: { type: str, optional: true, writeOnly: true } } } },
    logins: { optional: true, nestedType: { nesting: "map", attributes: { token_wo: { type: str, optional: true, writeOnly: true } } } },
  },
  blockTypes: { cred: { nesting: "list", block: cred }, one: { nesting: "single", block: cred }, tags: { nesting: "set", block: { attributes: { k: { type: str, optional: true } } } } },
};

const full = configValue(block, {
  secret_wo: "s",
  plain: "p",
  login: { user: "u", token_wo: "t" },
  logins: { a: { token_wo: "ta" }, b: { token_wo: null } },
  cred: [{ user: "x", password_wo: "px" }, { user: "y" }],
  tags: [{ k: "v" }],
});

describe("write-only paths", () => {
  test("every write-only attribute the value holds, in blocks and nested attributes, in name order", () => {
    expect(containsWriteOnly(block)).toBe(true);
    expect(containsWriteOnly(cred)).toBe(true);
    expect(containsWriteOnly({ attributes: { a: { type: str, optional: true } } })).toBe(false);
    expect(writeOnlyPaths(block, full).map((p) => p.toString())).toEqual([
      "login.token_wo",
      'logins["a"].token_wo',
      'logins["b"].token_wo',
      "secret_wo",
      "cred[0].password_wo",
      "cred[1].password_wo",
    ]);
    expect(nonNullWriteOnlyPaths(block, full).map((p) => p.toString())).toEqual(["login.token_wo", 'logins["a"].token_wo', "secret_wo", "cred[0].password_wo"]);
    // Null and unknown objects hold none.
    expect(writeOnlyPaths(block, nullVal(impliedType(block)))).toEqual([]);
    expect(writeOnlyPaths(block, unknownVal(impliedType(block)))).toEqual([]);
  });

  test("stripWriteOnlyAttributes nulls them all and keeps everything else, marks included", () => {
    const marked = full.mark(Mark.Sensitive);
    const stripped = stripWriteOnlyAttributes(block, marked);
    expect(stripped.isMarked(Mark.Sensitive)).toBe(true);
    const plain = stripped.unmark();
    expect(nonNullWriteOnlyPaths(block, plain)).toEqual([]);
    expect(writeOnlyPaths(block, plain)).toHaveLength(6);
    expect(plain.getAttr("plain").asString()).toBe("p");
    expect(plain.getAttr("login").getAttr("user").asString()).toBe("u");
    expect(plain.getAttr("cred").index(1).getAttr("user").asString()).toBe("y");
    expect(plain.getAttr("tags").rawEquals(full.getAttr("tags"))).toBe(true);
    expect(plain.type).toBe(full.type);
  });

  test("mapWriteOnlyAttributes applies a function to each of them only", () => {
    const mapped = mapWriteOnlyAttributes(block, full, (v) => (v.isNull() ? v : unknownVal(v.type)));
    expect(writeOnlyPaths(block, mapped).filter((p) => !mapped.getPath(p).isKnown()).map((p) => p.toString())).toEqual(["login.token_wo", 'logins["a"].token_wo', "secret_wo", "cred[0].password_wo"]);
    expect(mapped.getAttr("plain").asString()).toBe("p");
    expect(mapped.getAttr("cred").index(1).getAttr("user").asString()).toBe("y");
    expect(mapped.getPath(Path.root.attr("logins").key("b").attr("token_wo")).isNull()).toBe(true);
  });
});

describe("schemas", () => {
  test("write-only attributes are refused inside sets and when computed, as Terraform refuses them", () => {
    const inSetBlock = () => createSchemaEntry({ blockTypes: { s: { nesting: "set", block: cred } } });
    expect(inSetBlock).toThrow("a set of nested blocks cannot contain write-only attributes");
    const inSetAttr = () => createSchemaEntry({ attributes: { s: { optional: true, nestedType: { nesting: "set", attributes: cred.attributes! } } } });
    expect(inSetAttr).toThrow("a set nested attribute cannot contain write-only attributes");
    expect(() => createSchemaEntry({ attributes: { w: { type: str, optional: true, computed: true, writeOnly: true } } })).toThrow("cannot be computed");
    expect(createSchemaEntry(block).block).toBe(block);
  });
});

describe("createNativeProvider", () => {
  const entry = createSchemaEntry(block);
  const leaky = (where: string) =>
    createNativeProvider({
      getSchema: () => ({ provider: createSchemaEntry({}), resources: new Map([["t", entry]]), dataSources: new Map() }),
      configure: () => undefined,
      planResourceChange: (_t, _p, proposed) => ({ plannedState: where === "plan" ? proposed : stripWriteOnlyAttributes(block, proposed) }),
      applyResourceChange: (_t, _p, planned, config) => ({ newState: where === "apply" ? configValue(block, { secret_wo: null, plain: "p", login: { user: "u", token_wo: "back" } }) : planned.isNull() ? planned : stripWriteOnlyAttributes(block, config) }),
      readResource: (_t, current) => ({ newState: where === "read" ? configValue(block, { secret_wo: "back" }) : current }),
      readDataSource: () => {
        throw new Error("none");
      },
      importResourceState: () => ({ resources: [{ state: configValue(block, { id: "i", cred: [{ password_wo: "back" }] }) }] }),
      upgradeResourceState: () => ({ upgradedState: configValue(block, { secret_wo: "back" }) }),
    });
  const rejection = async (p: Promise<unknown>): Promise<string> => {
    const e = await p.then(() => undefined, (x: unknown) => x);
    return isProviderError(e) && e.code === "invalid_response" ? `${e.message} @ ${e.detail.path?.toString() ?? ""}` : String(e);
  };

  test("a result that holds a value for a write-only attribute is an invalid response naming it", async () => {
    const config = configValue(block, { secret_wo: "s", plain: "p", login: { user: "u", token_wo: "t" } });
    const none = nullVal(impliedType(block));
    const run = async (where: string): Promise<string> => {
      const p = leaky(where);
      await p.configure(configValue({}, {}), "1.11.4");
      switch (where) {
        case "plan":
          return rejection(p.planResourceChange("t", none, config, config));
        case "apply":
          return rejection(p.applyResourceChange("t", none, stripWriteOnlyAttributes(block, config), config));
        case "read":
          return rejection(p.readResource("t", stripWriteOnlyAttributes(block, config)));
        case "import":
          return rejection(p.importResourceState("t", "i"));
        default:
          return rejection(p.upgradeResourceState("t", 0, "{}"));
      }
    };
    expect(await run("plan")).toBe('[invalid_response] planResourceChange of t returned a value for the write-only attribute "t.login.token_wo" during planning. Write-only attributes cannot be read back from the provider. @ login.token_wo');
    expect(await run("apply")).toContain('"t.login.token_wo" after apply');
    expect(await run("read")).toContain('"t.secret_wo" during refresh');
    expect(await run("import")).toContain('"t.cred[0].password_wo" during import');
    expect(await run("upgrade")).toContain('"t.secret_wo" during upgrade');
    // A well-behaved provider passes.
    const good = leaky("none");
    await good.configure(configValue({}, {}), "1.11.4");
    const planned = await good.planResourceChange("t", none, config, config);
    expect(planned.plannedState.getAttr("secret_wo").isNull()).toBe(true);
    expect(planned.plannedState.getAttr("plain").rawEquals(stringVal("p"))).toBe(true);
  });
});
