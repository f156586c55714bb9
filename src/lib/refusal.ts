// A refusal of the command line: printed as one line ("gameplatform: <message>"), no stack, exit status 1 or its own.
export class CliRefusal extends Error {
  /** the exit status (1 unless a command documents another, e.g. migrate's 4) */
  readonly exitCode: number;

  constructor(message: string, options: { exitCode?: number } = {}) {
    super(message);
    this.exitCode = options.exitCode ?? 1;
  }
}
