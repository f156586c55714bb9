// A refusal of the command line: printed as one line ("gameplatform: <message>"), exit status 1, no stack.
export class CliRefusal extends Error {}
