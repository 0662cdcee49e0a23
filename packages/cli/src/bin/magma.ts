#!/usr/bin/env node
// The `magma` executable. The published file is this one bundled with everything it imports
// (scripts/bundle-bin.mjs: one ES module plus chunks loaded on demand), which saves node most of
// its module resolution and file reads at start-up; `main` in dist/main.js is the same program
// unbundled.
import { main } from "../main.js";

await main(process.argv.slice(2));
