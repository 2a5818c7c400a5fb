// Loaded with --import into a process a bench times (bench/lib/stats-cli.mjs runs `arbiter stats` so): at
// exit it writes the process's CPU time, user + system of every thread, in microseconds, to stderr.
process.on('exit', () => {
  const used = process.cpuUsage();
  process.stderr.write(`\nbench-cpu-us ${used.user + used.system}\n`);
});
