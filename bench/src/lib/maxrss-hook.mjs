// Loaded into a measured child with `node --import <this file>`: at exit it writes the
// process's peak resident set size (getrusage ru_maxrss, kilobytes on Linux) and its CPU time
// (user + system, microseconds) as JSON to the file named by BENCH_MAXRSS_FILE. Exact, and no
// polling of /proc.
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_MAXRSS_FILE;
if (target) {
  process.on('exit', () => {
    try {
      const u = process.resourceUsage();
      writeFileSync(target, JSON.stringify({ maxRSS: u.maxRSS, cpuMicros: u.userCPUTime + u.systemCPUTime }));
    } catch {
      // the measurement is then reported missing; never change the child's exit code
    }
  });
}
