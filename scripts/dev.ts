/** `npm run dev`: the API on port 3000 and Vite's dev server (which proxies /api to it) side by side. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const port = process.env.PORT ?? '3000';
const env = { ...process.env, PORT: port, GUILDHALL_API: `http://localhost:${port}` };
const children = [
  spawn(process.execPath, ['--watch', 'packages/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: process.env.PORT ?? '3000' },
  }),
  spawn(join(root, 'node_modules/.bin/vite'), [], { cwd: join(root, 'packages/web'), stdio: 'inherit', env }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && stop());
