import { isConfigValidator } from "./config-validator.js";

describe("isConfigValidator", () => {
  test("an object with the three validation calls is one", () => {
    const ok = { validateProviderConfig: async () => ({ warnings: [] }), validateResourceConfig: async () => ({ warnings: [] }), validateDataResourceConfig: async () => ({ warnings: [] }) };
    expect(isConfigValidator(ok)).toBe(true);
  });

  test("anything missing one of them, or not an object, is not", () => {
    const partial = { validateProviderConfig: async () => ({ warnings: [] }), validateResourceConfig: async () => ({ warnings: [] }) };
    expect(isConfigValidator(partial)).toBe(false);
    expect(isConfigValidator({ ...partial, validateDataResourceConfig: "no" })).toBe(false);
    expect(isConfigValidator(null)).toBe(false);
    expect(isConfigValidator(undefined)).toBe(false);
    expect(isConfigValidator("validateProviderConfig")).toBe(false);
  });
});
