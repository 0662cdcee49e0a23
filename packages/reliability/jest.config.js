import preset from "../../jest.preset.js";

// Integration tests start provider processes (each ~0.3–1 s of CPU): generous per-test time.
export default { ...preset, testTimeout: 120000 };
