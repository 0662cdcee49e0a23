/**
 * Resolves once everything written so far to the process's stdout and stderr is flushed
 * (pipes are asynchronous): for the places that end the process themselves.
 */
export async function flushOutput(): Promise<void> {
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  await new Promise<void>((resolve) => process.stderr.write("", () => resolve()));
}
