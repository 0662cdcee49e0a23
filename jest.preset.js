// Shared Jest preset: ts-jest in ESM mode, transpile-only (type checking is the separate
// `typecheck` task), `.js` suffixes on relative imports mapped back to the `.ts` sources.
import { fileURLToPath } from "node:url";

/** @type {import('jest').Config} */
export default {
  // A CLI configuration variable naming a missing file is replaced for the tests' processes (see the file).
  globalSetup: fileURLToPath(new URL("./jest.global-setup.js", import.meta.url)),
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: {
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
  transform: {
    "^.+\\.ts$": ["ts-jest", { useESM: true, tsconfig: { isolatedModules: true, sourceMap: true } }],
  },
  testMatch: ["<rootDir>/src/**/*.test.ts", "<rootDir>/test/**/*.test.ts"],
  testTimeout: 60000,
};
