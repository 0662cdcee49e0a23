import type { PluginLogger } from "../../plugin-logger.js";

/**
 * Calls a logger, never letting it throw into the caller.
 *
 * @internal
 */
export function safeLog(logger: PluginLogger, entry: Parameters<PluginLogger["log"]>[0]): void {
  try {
    logger.log(entry);
  } catch {
    // Loggers must not break the plugin lifecycle.
  }
}
