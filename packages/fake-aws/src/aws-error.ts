/**
 * An error answered to a client in the wire format of the called service: an AWS error
 * code (e.g. `ParameterNotFound`), a message and an HTTP status.
 *
 * Service handlers throw it; the server turns it into a JSON 1.1 error body
 * (`{"__type": code, "message": …}`), an EC2 `<Response><Errors>…` document or an
 * AWS Query `<ErrorResponse>` document, depending on the protocol of the request.
 */
export class AwsError extends Error {
  /** The AWS error code, e.g. `ResourceNotFoundException` or `InvalidAllocationID.NotFound`. */
  readonly code: string;
  /** The HTTP status answered with the error (400 for client errors, 5xx for server faults). */
  readonly status: number;

  /**
   * @param code - the AWS error code.
   * @param message - the human-readable message sent to the client.
   * @param status - the HTTP status; defaults to 400.
   */
  constructor(code: string, message: string, status = 400) {
    super(message);
    this.name = "AwsError";
    this.code = code;
    this.status = status;
  }
}

/** Whether `x` looks like an {@link AwsError} (checked by shape, not `instanceof`). */
export function isAwsError(x: unknown): x is AwsError {
  return (
    typeof x === "object" &&
    x !== null &&
    (x as { name?: unknown }).name === "AwsError" &&
    typeof (x as { code?: unknown }).code === "string" &&
    typeof (x as { status?: unknown }).status === "number"
  );
}
