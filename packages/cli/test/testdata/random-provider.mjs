// Test fixture: magma's native random provider under the export name the side-by-side mirror
// serves (createProvider), so one mirror can serve it beside the other test providers.
export { createRandomProvider as createProvider } from "@magma/provider-random";
