/**
 * The server as JavaScript for `npm start` (decision 0191): every module of the packages the server's process runs
 * (shared, db, seed, server), tests aside, is compiled from `src/` to `dist/` beside it, one file for one file and the
 * folders kept (the server discovers declarations by their file names and finds files relative to its modules), a
 * relative import of `x.ts` becoming one of `x.js`. Other files there (the migrations, the engine thread's plain
 * JavaScript) are copied. The packages' exports lead to `dist/` under the `guildhall-compiled` condition, which the
 * start script sets. Development and tests keep running the TypeScript.
 */
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';

const root = join(import.meta.dirname, '..');
const PACKAGES = ['shared', 'db', 'seed', 'server'];

const isTest = (name: string) => /\.test\.tsx?$/.test(name);
const isModule = (name: string) => name.endsWith('.ts') && !name.endsWith('.d.ts');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Each file compiled alone: every import stays an import, a relative `.ts` one now names the `.js` file. */
const eachFileAlone: Plugin = {
  name: 'each-file-alone',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const path = args.path.startsWith('.') ? args.path.replace(/\.ts$/, '.js') : args.path;
      return { path, external: true };
    });
  },
};

const entryPoints: { in: string; out: string }[] = [];
for (const pkg of PACKAGES) {
  const src = join(root, 'packages', pkg, 'src');
  const dist = join(root, 'packages', pkg, 'dist');
  rmSync(dist, { recursive: true, force: true });
  for (const file of walk(src)) {
    const name = relative(src, file);
    if (isTest(name)) continue;
    if (isModule(name)) entryPoints.push({ in: file, out: join(dist, name.replace(/\.ts$/, '')) });
    else if (!name.endsWith('.d.ts')) cpSync(file, join(dist, name));
  }
}

await build({
  entryPoints,
  outdir: root,
  bundle: true,
  plugins: [eachFileAlone],
  format: 'esm',
  platform: 'node',
  target: 'node22',
  logLevel: 'warning',
});
console.log(`Compiled ${entryPoints.length} modules of ${PACKAGES.join(', ')} to dist/.`);
