import preset from "../../jest.preset.js";

// The preflight test only stats files: the preset timeout is plenty.
export default { ...preset, testTimeout: 60000 };
