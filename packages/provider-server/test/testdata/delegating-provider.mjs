// Test fixture helper: a Provider that forwards each of the 8 operations to `p` (bound, as
// the native provider's methods read its private state), with `overrides` replacing some.
export function delegatingProvider(p, overrides = {}) {
  const forward = (name) => (...args) => p[name](...args);
  return {
    ...p,
    getSchema: forward("getSchema"),
    configure: forward("configure"),
    planResourceChange: forward("planResourceChange"),
    applyResourceChange: forward("applyResourceChange"),
    readResource: forward("readResource"),
    readDataSource: forward("readDataSource"),
    importResourceState: forward("importResourceState"),
    upgradeResourceState: forward("upgradeResourceState"),
    ...overrides,
  };
}
