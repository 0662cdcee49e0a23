// Shared Jest preset: ts-jest in ESM mode, transpile-only (type checking is the separate
// `typecheck` task), `.js` suffixes on relative imports mapped back to the `.ts` sources.
/** @type {import('jest').Config} */
export default {
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
