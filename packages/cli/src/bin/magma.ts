#!/usr/bin/env node
// The `magma` executable. The published file is this one bundled with everything it imports
// (scripts/bundle-bin.mjs: one ES module plus chunks loaded on demand), which saves node most of
// its module resolution and file reads at start-up; `main` in dist/main.js is the same program
// unbundled.
//
// V8's heap flags first, before the program is loaded and allocates (see heap-flags.ts); the
// program is therefore imported dynamically, after the call.
import { applyCliHeapFlags } from "./heap-flags.js";

applyCliHeapFlags();
const { main } = await import("../main.js");
await main(process.argv.slice(2));
