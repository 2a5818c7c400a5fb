// Preloaded into a child the bench runs (`node --import ./bench/lib/peak-rss.mjs bin/arbiter.mjs …`):
// when the process exits it writes its own peak resident memory (KiB, getrusage's maxrss) to the file
// named by BENCH_PEAK_RSS_FILE, so a bench can report the memory of one command and not its own.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
