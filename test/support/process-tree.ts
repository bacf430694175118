// A process and the processes below it, read from /proc (Linux): who they are and what they hold in
// memory. One helper for the benchmarks that measure the API, the crawler and its Chromium, and for
// the browser-fallback test that checks which Chromium processes run and that none stays behind.
// Also where the tests and benchmarks find Chromium, the same way the crawler does.

import fs from 'node:fs';
import path from 'node:path';
import { findChromium } from '../../crawler/chromium';

/**
 * The Chromium the crawler would use with BROWSER_EXECUTABLE_PATH unset (the usual install paths),
 * or the path that variable names; null when there is none (tests then skip with a printed reason,
 * CI installs Debian's `chromium`).
 */
export function chromiumPath(): string | null {
  const setting = process.env.BROWSER_EXECUTABLE_PATH;
  const found = findChromium(setting !== undefined && setting !== '' && setting.toLowerCase() !== 'off' ? setting : null);
  return 'path' in found ? found.path : null;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pid → parent pid for every process visible in /proc. */
function parentMap(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may contain spaces and parentheses, so cut after the last ')'.
      out.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended between readdir and read.
    }
  }
  return out;
}

/** Every process below `root` (children, their children …), at this moment. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentMap()) {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const todo = [...(children.get(root) ?? [])];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The command line as one space-separated string, or null once the process is gone. */
export function cmdlineOf(pid: number): string | null {
  try {
    // Chromium rewrites its argv into one space-separated string; others keep NUL separators.
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return null;
  }
}

/** What a process is, for a breakdown: Chromium's --type (with a utility's sub-type), 'browser', or the executable's name. */
export function kindOf(pid: number): string {
  const cmdline = cmdlineOf(pid);
  if (cmdline === null) return '?';
  const type = /--type=(\S+)/.exec(cmdline)?.[1];
  const sub = /--utility-sub-type=\S*?(\w+)\.mojom/.exec(cmdline)?.[1];
  if (type) return sub ? `${type}:${sub}` : type;
  const exe = path.basename(cmdline.split(' ')[0] ?? '?');
  if (/crashpad/.test(exe)) return 'crashpad';
  return /chrom/i.test(exe) || /--remote-debugging-pipe/.test(cmdline) ? 'browser' : exe;
}

export interface ChromiumProcess {
  pid: number;
  /** Chromium's --type (renderer, utility, zygote, gpu-process …); 'browser' for the main process. */
  type: string;
  cmdline: string;
}

/** The Chromium processes below `root` (Playwright starts them as children of its caller). */
export function chromiumProcesses(root: number = process.pid): ChromiumProcess[] {
  const out: ChromiumProcess[] = [];
  for (const pid of descendants(root)) {
    const cmdline = cmdlineOf(pid);
    if (cmdline === null || !/chrom/i.test(cmdline.split(' ')[0] ?? '')) continue;
    out.push({ pid, type: /--type=(\S+)/.exec(cmdline)?.[1] ?? 'browser', cmdline });
  }
  return out;
}

export interface MemoryKb {
  rss: number;
  /** Peak RSS as the kernel recorded it. */
  hwm: number;
  /** RSS split: anonymous (heap, stacks), file-backed (code, mmapped files), shared memory. */
  anon: number;
  file: number;
  shmem: number;
}

/** VmRSS, VmHWM and the RSS split of one process in kB; null once it is gone. */
export function memoryKb(pid: number): MemoryKb | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: field('VmRSS'), hwm: field('VmHWM'), anon: field('RssAnon'), file: field('RssFile'), shmem: field('RssShmem') };
  } catch {
    return null;
  }
}

/** Proportional set size (shared pages split among their sharers) in kB; null when unreadable. */
export function pssKb(pid: number): number | null {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export interface TreeRow {
  kind: string;
  rss: number;
  anon: number;
  pss: number;
}

/** One look at a process and its descendants: each process's memory, and the sums. Null once the root is gone. */
export function treeMemory(root: number): { root: MemoryKb; rows: TreeRow[]; children: number; rssKb: number; pssKb: number } | null {
  const own = memoryKb(root);
  if (!own) return null;
  const kids = descendants(root);
  const rows: TreeRow[] = [{ kind: 'node (root)', rss: own.rss, anon: own.anon, pss: pssKb(root) ?? 0 }];
  for (const pid of kids) {
    const m = memoryKb(pid);
    if (m) rows.push({ kind: kindOf(pid), rss: m.rss, anon: m.anon, pss: pssKb(pid) ?? 0 });
  }
  return {
    root: own,
    rows,
    children: kids.length,
    rssKb: rows.reduce((sum, r) => sum + r.rss, 0),
    pssKb: rows.reduce((sum, r) => sum + r.pss, 0),
  };
}

/** Samples a process tree every `intervalMs` until stopped, keeping the peaks. */
export class TreeSampler {
  peakRootKb = 0;
  peakTreeKb = 0;
  peakTreePssKb = 0;
  peakChildren = 0;
  samples = 0;
  /** The root's memory at its own peak sample. */
  rootAtPeak: MemoryKb | null = null;
  /** Each process of the tree at the tree's peak sample. */
  treeAtPeak: TreeRow[] = [];
  /** Descendants and summed VmRSS at the last sample (after stop(): at the end). */
  lastChildren = 0;
  lastTreeKb = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly root: number, intervalMs = 200) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  private sample(): void {
    const t = treeMemory(this.root);
    if (!t) return;
    this.samples += 1;
    if (t.root.rss > this.peakRootKb) {
      this.peakRootKb = t.root.rss;
      this.rootAtPeak = t.root;
    }
    if (t.rssKb > this.peakTreeKb) {
      this.peakTreeKb = t.rssKb;
      this.treeAtPeak = t.rows;
    }
    this.peakTreePssKb = Math.max(this.peakTreePssKb, t.pssKb);
    this.peakChildren = Math.max(this.peakChildren, t.children);
    this.lastChildren = t.children;
    this.lastTreeKb = t.rssKb;
  }
}
