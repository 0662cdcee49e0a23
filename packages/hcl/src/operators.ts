import { boolType, boolVal, dynamicType, numberType, numberVal, unknownVal, type CtyNumber, type Type, type Value } from "@magma/cty";
import type { BinaryOperator } from "./ast.js";
import { FunctionError, type HclFunction } from "./function.js";
import { addNumbers, divideNumbers, moduloNumbers, multiplyNumbers, negateNumber, NumberOpError, subtractNumbers } from "./number-ops.js";

const notNull = (): { notNull: true } => ({ notNull: true });

function numberOp(description: string, f: (a: Value, b: Value) => Value): HclFunction {
  return {
    description,
    params: [
      { name: "a", type: numberType, allowDynamicType: true },
      { name: "b", type: numberType, allowDynamicType: true },
    ],
    type: () => numberType,
    impl: (args) => f(args[0]!, args[1]!),
    refineResult: notNull,
  };
}

function arith(description: string, op: (a: CtyNumber, b: CtyNumber) => CtyNumber, failure: (e: NumberOpError) => string): HclFunction {
  return numberOp(description, (a, b) => {
    try {
      return numberVal(op(a.asNumber(), b.asNumber()));
    } catch (e) {
      if (e instanceof NumberOpError) throw new FunctionError(failure(e));
      throw e;
    }
  });
}

function compare(description: string, test: (c: number) => boolean): HclFunction {
  return {
    description,
    params: [
      { name: "a", type: numberType, allowDynamicType: true },
      { name: "b", type: numberType, allowDynamicType: true },
    ],
    type: () => boolType,
    impl: (args) => boolVal(test(args[0]!.asNumber().compare(args[1]!.asNumber()))),
    refineResult: notNull,
  };
}

function logical(description: string, isAnd: boolean): HclFunction {
  return {
    description,
    params: [
      { name: "a", type: boolType, allowDynamicType: true, allowUnknown: true },
      { name: "b", type: boolType, allowDynamicType: true, allowUnknown: true },
    ],
    type: () => boolType,
    impl: (args) => {
      const [a, b] = args as [Value, Value];
      const decisive = !isAnd;
      if ((a.isKnown() && a.asBool() === decisive) || (b.isKnown() && b.asBool() === decisive)) return boolVal(decisive);
      if (!a.isKnown() || !b.isKnown()) return unknownVal(boolType, { notNull: true });
      return boolVal(isAnd ? a.asBool() && b.asBool() : a.asBool() || b.asBool());
    },
    refineResult: notNull,
  };
}

function equality(negate: boolean): HclFunction {
  return {
    description: negate ? "Whether two values differ." : "Whether two values are equal.",
    params: [
      { name: "a", type: dynamicType, allowDynamicType: true, allowUnknown: true, allowNull: true, allowMarked: true },
      { name: "b", type: dynamicType, allowDynamicType: true, allowUnknown: true, allowNull: true, allowMarked: true },
    ],
    type: () => boolType,
    impl: (args) => {
      const eq = args[0]!.equals(args[1]!);
      if (!negate) return eq;
      const marks = [...eq.marks];
      const plain = eq.unmark();
      const r = plain.isKnown() ? boolVal(!plain.asBool()) : plain;
      return marks.length > 0 ? r.mark(...marks) : r;
    },
    refineResult: notNull,
  };
}

/** The functions behind HCL's binary operators (go-cty's stdlib operator functions). */
export const BINARY_OPERATORS: Readonly<Record<BinaryOperator, { fn: HclFunction; type: Type }>> = {
  "+": { fn: arith("Sum.", addNumbers, () => "can't compute sum of opposing infinities"), type: numberType },
  "-": { fn: arith("Difference.", subtractNumbers, () => "can't subtract infinity from itself"), type: numberType },
  "*": { fn: arith("Product.", multiplyNumbers, () => "can't multiply zero by infinity"), type: numberType },
  "/": {
    fn: arith("Quotient.", divideNumbers, () => "can't divide zero by zero or infinity by infinity"),
    type: numberType,
  },
  "%": { fn: arith("Remainder.", moduloNumbers, () => "can't use modulo with zero and infinity"), type: numberType },
  "<": { fn: compare("Less than.", (c) => c < 0), type: boolType },
  "<=": { fn: compare("Less than or equal.", (c) => c <= 0), type: boolType },
  ">": { fn: compare("Greater than.", (c) => c > 0), type: boolType },
  ">=": { fn: compare("Greater than or equal.", (c) => c >= 0), type: boolType },
  "&&": { fn: logical("Logical AND.", true), type: boolType },
  "||": { fn: logical("Logical OR.", false), type: boolType },
  "==": { fn: equality(false), type: boolType },
  "!=": { fn: equality(true), type: boolType },
};

/** The functions behind HCL's unary operators. */
export const UNARY_OPERATORS: Readonly<Record<"-" | "!", { fn: HclFunction; type: Type }>> = {
  "-": {
    fn: {
      description: "Negation.",
      params: [{ name: "num", type: numberType, allowDynamicType: true }],
      type: () => numberType,
      impl: (args) => numberVal(negateNumber(args[0]!.asNumber())),
      refineResult: notNull,
    },
    type: numberType,
  },
  "!": {
    fn: {
      description: "Logical NOT.",
      params: [{ name: "val", type: boolType, allowDynamicType: true }],
      type: () => boolType,
      impl: (args) => boolVal(!args[0]!.asBool()),
      refineResult: notNull,
    },
    type: boolType,
  },
};
