/**
 * A `show -json` plan document made comparable between two runs: without its `timestamp`, and
 * with `relevant_attributes` in a fixed order (Terraform builds that list from a Go map, so its
 * order changes from run to run). The input is not changed.
 */
export function comparablePlanJson(doc: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...doc };
  delete out["timestamp"];
  const relevant = out["relevant_attributes"];
  if (Array.isArray(relevant)) out["relevant_attributes"] = [...(relevant as unknown[])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return out;
}
