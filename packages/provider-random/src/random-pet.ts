import { mapType, numberType, stringType, stringVal, type Value } from "@magma/cty";
import { createSchemaEntry, errorDiag, type Diag, type NativeApply } from "@magma/provider-api";
import { uniformIndex } from "./random-source.js";
import { attrPath, int64Attr, int64Val, randomReadDiag, withAttrs, type RandomResource } from "./resource-kit.js";
import { createSecureRandom } from "./secure-random.js";

const entry = createSchemaEntry({
  description:
    "The resource `random_pet` generates random pet names that are intended to be used as unique identifiers for other resources.\n\nThis resource can be used in conjunction with resources that have the `create_before_destroy` lifecycle flag set, to avoid conflicts with unique names during the brief period where both the old and new resources exist concurrently.",
  attributes: {
    keepers: {
      type: mapType(stringType),
      optional: true,
      description:
        "Arbitrary map of values that, when changed, will trigger recreation of resource. See [the main provider documentation](../index.html) for more information.",
    },
    length: {
      type: numberType,
      optional: true,
      computed: true,
      description: "The length (in words) of the pet name. Defaults to 2",
    },
    prefix: { type: stringType, optional: true, description: "A string to prefix the name with." },
    separator: {
      type: stringType,
      optional: true,
      computed: true,
      description: 'The character to separate words in the pet name. Defaults to "-"',
    },
    id: { type: stringType, computed: true, description: "The random pet name." },
  },
});

// magma's own word lists (not golang-petname's, which hashicorp/random draws from): the names
// are random either way, only the vocabulary differs.
const ADVERBS = "gladly briskly calmly daily deeply eagerly evenly fairly firmly freely gently quickly kindly lightly loudly mainly neatly nearly newly openly partly plainly proudly quietly rarely rightly safely simply slowly smoothly softly solely surely swiftly truly vastly warmly widely wisely yearly".split(" ");
const ADJECTIVES = "able amber bold brave bright calm clever cosmic crisp curious daring eager fancy fast fluent fresh gentle glad golden grand happy honest jolly keen kind lively loyal lucky merry mighty modest noble polite proud quick quiet rapid ready sharp shy smart steady sunny swift tidy vivid warm wise witty".split(" ");
const NAMES = "badger bear beaver bison bobcat camel cat cheetah cobra condor crane crow deer dingo dolphin eagle falcon ferret finch fox gecko gibbon goose hare hawk heron horse ibex jackal koala lemur lion llama lynx marmot mole moose newt otter owl panda parrot pelican puffin quail rabbit raven robin salmon seal shark sloth swan tiger toad trout turtle viper walrus wolf wombat yak zebra".split(" ");

function validate(config: Value): Diag[] {
  const diags: Diag[] = [];
  const n = int64Attr(config, "length", diags);
  if (n !== undefined && n < 1n) diags.push(errorDiag("Invalid Attribute Value", `Attribute length value must be at least 1, got: ${n.toString()}`, attrPath("length")));
  return diags;
}

function create(planned: Value): NativeApply {
  const diags: Diag[] = [];
  const length = Number(int64Attr(planned, "length", diags) ?? 2n);
  if (diags.length > 0) return { diagnostics: diags };
  const separator = planned.getAttr("separator").isNull() ? "-" : planned.getAttr("separator").asString();
  const prefix = planned.getAttr("prefix");
  let words: string[];
  try {
    const rng = createSecureRandom();
    const pick = (list: readonly string[]): string => list[uniformIndex(rng, list.length)]!;
    words = [...Array.from({ length: Math.max(0, length - 2) }, () => pick(ADVERBS)), ...(length >= 2 ? [pick(ADJECTIVES)] : []), pick(NAMES)];
  } catch (e) {
    return { diagnostics: [randomReadDiag(e)] };
  }
  let pet = words.join(separator).toLowerCase();
  if (!prefix.isNull() && prefix.asString() !== "") pet = `${prefix.asString()}${separator}${pet}`;
  return { newState: withAttrs(planned, { id: stringVal(pet) }) };
}

/** random_pet: schema version 0, not importable. @internal */
export const randomPetResource: RandomResource = {
  typeName: "random_pet",
  entry,
  rules: {
    keepers: { replace: "keepers" },
    length: { default: int64Val(2), replace: "always" },
    prefix: { replace: "always" },
    separator: { default: stringVal("-"), replace: "always" },
    id: { useStateForUnknown: true },
  },
  validate,
  create,
};
