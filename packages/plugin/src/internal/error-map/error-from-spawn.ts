import { providerNotFoundError, transportError, type AnyProviderError } from "@magma/provider-api";

/**
 * The error of a plugin that could not be started: `provider_not_found` when the file is
 * missing or not executable, `transport` otherwise.
 *
 * @internal
 */
export function errorFromSpawn(command: string, cause: unknown): AnyProviderError {
  const errno = (cause as { code?: unknown } | null)?.code;
  const reason =
    errno === "ENOENT"
      ? "no such file"
      : errno === "EACCES"
        ? "permission denied (is it executable?)"
        : cause instanceof Error
          ? cause.message
          : String(cause);
  if (errno === "ENOENT" || errno === "EACCES") {
    return providerNotFoundError(`cannot start plugin ${JSON.stringify(command)}: ${reason}`, { binary: command, cause });
  }
  return transportError(`cannot start plugin ${JSON.stringify(command)}: ${reason}`, { cause });
}
