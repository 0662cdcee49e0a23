/**
 * Terraform's notice on the first interrupt of an operation (its `views.interrupted`, then
 * `Stopping()`'s "Stopping operation..."), as the human view prints it; the JSON view gives
 * the two parts as two log messages.
 */
export const INTERRUPT_NOTICE = "\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...\n\nStopping operation...\n";
