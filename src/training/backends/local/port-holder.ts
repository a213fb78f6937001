// Who listens on a TCP port, as far as Linux tells: /proc/net/tcp{,6} for the socket, /proc/PID/fd for its owner.
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

export interface PortHolder {
  pid?: number;
  command?: string;
}

const LISTEN = "0A";

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== LISTEN) continue;
      const hexPort = cols[1]!.split(":")[1];
      if (hexPort !== undefined && Number.parseInt(hexPort, 16) === port) inodes.add(cols[9]!);
    }
  }
  return inodes;
}

function commandLine(pid: number): string | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    const words = raw.split("\0").filter(Boolean);
    return words.length ? words.join(" ").slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}

/** The process listening on `port`; undefined when nothing listens, {} when something does but its owner is hidden. */
export function findPortHolder(port: number): PortHolder | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  const wanted = new Set([...inodes].map((i) => `socket:[${i}]`));
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return {};
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`)))
          return { pid: Number(pid), command: commandLine(Number(pid)) };
      } catch {
        // the fd closed meanwhile
      }
    }
  }
  return {};
}
