/** A failure the CLI explains in one message, with its exit code (2: it could not do its job). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = "CliError";
  }
}
