#!/usr/bin/env node
// The `magma` executable's entry, committed so that the link a package manager makes to it
// exists before the first build (the program is dist/bin/magma.js, bundled by the build).
import "../dist/bin/magma.js";
