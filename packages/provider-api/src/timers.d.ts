// Timers exist in every JavaScript runtime magma supports, but the ES library typings do
// not declare them and this package compiles with `types: []` (no Node or DOM types).
declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
