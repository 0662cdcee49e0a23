/**
 * What a second interrupt (Ctrl-C twice, or a second SIGTERM) does. The `magma` executable
 * asks {@link handleFatalInterrupt} first; without a handler it prints terraform's words and
 * exits 130 at once. A working-directory operation (plan, apply, destroy, refresh) installs
 * terraform's own handling for as long as it runs: the words (wrapped, or a `-json` log
 * message), an `operation canceled` error, the state lock released, exit 1.
 */

/** Terraform's words for a second interrupt (its `fatalInterrupt`). */
export const FATAL_INTERRUPT = "\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n";

/** A second-interrupt handler: it must end the process (it is called from a signal listener). */
export type FatalInterruptHandler = () => void;

let current: FatalInterruptHandler | undefined;

/**
 * Installs `handler` for the second interrupt, replacing any other; returns a function
 * that removes it again (a no-op once another handler has replaced it).
 */
export function onFatalInterrupt(handler: FatalInterruptHandler): () => void {
  current = handler;
  return () => {
    if (current === handler) current = undefined;
  };
}

/** Runs the installed second-interrupt handler; false when none is installed (the caller exits its own way). */
export function handleFatalInterrupt(): boolean {
  const handler = current;
  if (handler === undefined) return false;
  handler();
  return true;
}
