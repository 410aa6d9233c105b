// Preloaded (`node --import ./cpu-report.ts server.ts`) into a server process measured by cpu-per-request.ts: each line
// `cpu` on stdin prints `CPU <user µs> <system µs>`, the process's own process.cpuUsage(), so the server reports the CPU
// it spent itself, unlike a throughput figure, which the load of a shared machine distorts. A line `exit` ends the process
// (so a --cpu-prof profile is written, which a SIGTERM to a bare server would not do).
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text: string) => {
  for (const line of text.split('\n')) {
    if (line.trim() === 'exit') process.exit(0);
    if (line.trim() !== 'cpu') continue;
    const { user, system } = process.cpuUsage();
    process.stdout.write(`CPU ${user} ${system}\n`);
  }
});
