// The cty msgpack codec on @msgpack/msgpack, kept only to re-measure the codec decision
// (docs/compatibility.md, "The msgpack codec"): run bench/msgpack-codec-compare.mjs.
export { fromMsgpackLibrary } from "./from-msgpack-library.js";
export { toMsgpackLibrary } from "./to-msgpack-library.js";
