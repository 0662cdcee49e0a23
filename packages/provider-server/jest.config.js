import preset from "../../jest.preset.js";

// The integration tests run real terraform (several runs per test): generous per-test time.
export default { ...preset, testTimeout: 300000 };
