/**
 * The three states of a cty value and the empty mark set, shared by the modules that read a
 * value's internal fields.
 * @internal
 */

/** @internal */
export const KNOWN = 0;
/** @internal */
export const NULL = 1;
/** @internal */
export const UNKNOWN = 2;
/** @internal */
export type State = typeof KNOWN | typeof NULL | typeof UNKNOWN;

/** @internal */
export const NO_MARKS: ReadonlySet<string> = new Set<string>();
