// Lint rules of the house style (../shared/docs/style.md): type-aware promise checks,
// exhaustive switches, type-only imports/exports, no `export *`. Generated code is not linted.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/gen/**", "**/node_modules/**", "**/*.js", "**/*.mjs", "**/testdata/**"] },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/consistent-type-exports": "error",
      "no-restricted-syntax": [
        "error",
        { selector: "ExportAllDeclaration", message: "Export by name: no `export *`." },
        { selector: "ExportDefaultDeclaration", message: "Use named exports." },
        { selector: "TSEnumDeclaration", message: "Use an `as const` object plus a union type." },
      ],
    },
  },
);
