/**
 * The samples of a V8 CPU profile (`--cpu-prof`) taken within a window of its clock (the monotonic clock, in
 * microseconds), summed by function: `node bench/src/cpu-profile-window.ts <profile> [<window.json>] [top]`. The
 * window file is the one the events bench writes beside its profile (`EVENTS_BENCH_PROFILE`: the warm race's start
 * and end); without it, the whole profile. Prints the window's busy and idle time, then the functions with the most
 * self time (file and line), and the self time by package.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, windowFile, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: cpu-profile-window.ts <profile> [<window.json>] [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const window = windowFile
  ? (JSON.parse(readFileSync(windowFile, 'utf8')) as { startUs: number; endUs: number })
  : { startUs: Number.NEGATIVE_INFINITY, endUs: Number.POSITIVE_INFINITY };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<string, number>();
const byPackage = new Map<string, number>();
let t = profile.startTime;
let total = 0;
let idle = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i] ?? 0;
  // A sample stands for the time up to the next one.
  const span = profile.timeDeltas[i + 1] ?? 0;
  if (t < window.startUs || t > window.endUs) continue;
  const node = byId.get(profile.samples[i] as number);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  total += span;
  if (functionName === '(idle)') {
    idle += span;
    continue;
  }
  const where = url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/packages\//, 'packages/');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  selfUs.set(key, (selfUs.get(key) ?? 0) + span);
  const pkg = url.includes('/node_modules/')
    ? (/\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? 'node_modules')
    : url.includes('/packages/')
      ? (/\/packages\/([^/]+\/(?:dist|src)\/(?:features\/[^/]+|platform|[^/]+))/.exec(url)?.[1] ?? 'packages')
      : url.startsWith('node:')
        ? 'node'
        : functionName.startsWith('(')
          ? functionName
          : '(native)';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + span);
}
const ms = (us: number) => (us / 1000).toFixed(1);
console.log(`window ${ms(total)} ms: busy ${ms(total - idle)} ms, idle ${ms(idle)} ms`);
console.log('\nself time by function (ms):');
for (const [k, v] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 40)))
  console.log(`${ms(v).padStart(7)}  ${k}`);
console.log('\nself time by package (ms):');
for (const [k, v] of [...byPackage].sort((a, b) => b[1] - a[1])) console.log(`${ms(v).padStart(7)}  ${k}`);
