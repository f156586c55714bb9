// A yes/no question on the terminal, for commands that destroy data (migrate --down, restore).
import { createInterface } from 'node:readline/promises';

/** Asks on the terminal; without one (a script, a pipe) the answer is no, and the caller says to use --yes. */
export async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}
