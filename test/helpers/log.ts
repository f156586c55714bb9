// A pino logger that keeps its lines in memory, for tests that assert what the service logged.
import pino from 'pino';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export function capturingLogger(level: pino.Level = 'info') {
  const lines: LogLine[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return {
    logger,
    lines,
    /** lines at this level (pino's numbers: 30 info, 40 warn, 50 error) whose message contains `text` */
    find: (levelName: 'info' | 'warn' | 'error', text: string) =>
      lines.filter((l) => l.level === pino.levels.values[levelName] && l.msg.includes(text)),
  };
}
