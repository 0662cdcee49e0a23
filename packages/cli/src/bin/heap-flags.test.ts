import { CLI_HEAP_FLAGS, cliHeapFlags } from "./heap-flags.js";

describe("cliHeapFlags", () => {
  test("sets every flag when the user chose none", () => {
    expect(cliHeapFlags([], undefined)).toEqual(CLI_HEAP_FLAGS.map(([flag]) => flag));
    expect(cliHeapFlags(["--enable-source-maps"], "--max-old-space-size=512")).toEqual(["--semi-space-growth-factor=1", "--no-opt", "--optimize-for-size"]);
  });

  test("keeps the user's own choice, on node's command line or in NODE_OPTIONS", () => {
    expect(cliHeapFlags([], "--max-semi-space-size=16")).toEqual(["--no-opt", "--optimize-for-size"]);
    expect(cliHeapFlags(["--semi_space_growth_factor=2"], undefined)).toEqual(["--no-opt", "--optimize-for-size"]);
    expect(cliHeapFlags(["--opt"], undefined)).toEqual(["--semi-space-growth-factor=1", "--optimize-for-size"]);
    expect(cliHeapFlags(["--turbofan"], undefined)).toEqual(["--semi-space-growth-factor=1", "--optimize-for-size"]);
    expect(cliHeapFlags(["--no-optimize-for-size"], undefined)).toEqual(["--semi-space-growth-factor=1", "--no-opt"]);
  });

  test("a flag that only starts like one of them is not a choice", () => {
    // --optimize-for-size is not --opt; --max-semi-space-sizes is no flag at all.
    expect(cliHeapFlags(["--optimize-for-size"], undefined)).toEqual(["--semi-space-growth-factor=1", "--no-opt"]);
    expect(cliHeapFlags(["--max-lazy"], undefined)).toEqual(["--semi-space-growth-factor=1", "--no-opt", "--optimize-for-size"]);
  });
});
