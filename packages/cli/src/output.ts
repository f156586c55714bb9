// What the command prints: a progress bar on a terminal (stderr), plain lines elsewhere, one JSON object with --json.
import cliProgress from 'cli-progress';

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export interface Progress {
  update(sent: number, total: number): void;
  stop(): void;
}

/**
 * The upload's progress: a bar on a terminal; without one (CI logs) a line at each quarter; nothing with --json, whose
 * stdout is the result alone.
 */
export function progress(quiet: boolean): Progress {
  if (quiet) return { update() {}, stop() {} };
  if (!process.stderr.isTTY) {
    let shown = -1;
    return {
      update(sent, total) {
        const quarter = Math.floor((sent / Math.max(1, total)) * 4);
        if (quarter > shown) {
          shown = quarter;
          process.stderr.write(`uploaded ${size(sent)} of ${size(total)} (${quarter * 25}%)\n`);
        }
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: 'uploading [{bar}] {percentage}% | {done} of {all}', hideCursor: true, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(sent, total) {
      if (!started) {
        bar.start(total, 0, { done: size(0), all: size(total) });
        started = true;
      }
      bar.update(sent, { done: size(sent), all: size(total) });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
