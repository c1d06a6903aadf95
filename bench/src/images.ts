/**
 * P9, images: a 20 MB photo (6000x4000 JPEG of noise, EXIF orientation 6, 24 megapixels as a camera takes them)
 * uploaded to a running server (`POST /api/images/Upload/3/0`): the request's time, which includes its transfer,
 * the content check, the normalised original, the variant and the thumbnail, and the server's resident memory
 * sampled every 10 ms during it against its level just before; then a new crop of it (`PUT /api/images/Image/{id}`,
 * the variants made again from the original); then 20 parallel uploads of 5 MB photos: none may fail, and the
 * memory they take is reported. The server is a child process on its own embedded database and data folder, so its
 * memory is its own.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { serverArgs } from './server-process.ts';

const MB = 1024 * 1024;

/** A photo of noise: compresses like a detailed picture, so its size is a real photo's. */
async function photo(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** Samples the process's resident memory every 10 ms while `work` runs; answers its result and the peak. */
async function sampled<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; before: number; peak: number }> {
  const before = rssOf(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 10);
  try {
    const result = await work();
    peak = Math.max(peak, rssOf(pid));
    return { result, before, peak };
  } finally {
    clearInterval(timer);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

export async function measureImages(root: string, port = 3991) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-images-'));
  const child = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const started = performance.now();
    for (;;) {
      if (performance.now() - started > 180_000) throw new Error('the server did not start within 180 s');
      try {
        if ((await fetch(`${base}/sign-in`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo.staff', password: 'demo-staff-pass-2026' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    if (!login.ok || !cookie) throw new Error(`sign-in failed: ${login.status}`);
    const pid = child.pid ?? 0;

    const upload = async (bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
      const t = performance.now();
      const res = await fetch(`${base}/api/images/Upload/3/0`, {
        method: 'POST',
        headers: { cookie },
        body: form,
      });
      const body = (await res.json()) as { ImageId?: number; message?: string };
      return { ms: performance.now() - t, status: res.status, body };
    };

    const big = await photo(6000, 4000);
    const small = await photo(3000, 2000);
    // The floor on this machine now: sharp alone making the normalised original of the same photo in this process.
    const floor: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await sharp(big).rotate().resize(3000, 3000, { fit: 'inside' }).jpeg({ quality: 90 }).toBuffer();
      floor.push(Math.round(performance.now() - t));
    }
    const loadBefore = loadavg()[0] ?? 0;
    // A first small upload loads the image library into the server, as any running server has it.
    await upload(small, 'warm-up.jpg');

    const runs: { ms: number; growthMB: number }[] = [];
    let imageId = 0;
    for (let i = 0; i < 3; i++) {
      const { result, before, peak } = await sampled(pid, () => upload(big, `photo-${i}.jpg`));
      if (result.status !== 200)
        throw new Error(`20 MB upload answered ${result.status} ${JSON.stringify(result.body)}`);
      imageId = result.body.ImageId ?? 0;
      runs.push({ ms: Math.round(result.ms), growthMB: +((peak - before) / MB).toFixed(1) });
    }
    const crops: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const res = await fetch(`${base}/api/images/Image/${imageId}`, {
        method: 'PUT',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ CropX: 100 + i, CropY: 200, CropWidth: 1500, CropHeight: 1000 }),
      });
      if (!res.ok) throw new Error(`crop answered ${res.status}`);
      crops.push(Math.round(performance.now() - t));
    }

    const parallel = await sampled(pid, () =>
      Promise.all(Array.from({ length: 20 }, (_, i) => upload(small, `parallel-${i}.jpg`))),
    );
    const failed = parallel.result.filter((r) => r.status !== 200).length;
    const photoMs = median(runs.map((r) => r.ms));
    const growthMB = Math.max(...runs.map((r) => r.growthMB));
    const parallelGrowthMB = +((parallel.peak - parallel.before) / MB).toFixed(1);
    return {
      loadAverage: { before: +loadBefore.toFixed(1), after: +(loadavg()[0] ?? 0).toFixed(1) },
      sharpAloneMs: floor,
      sharpAloneMedianMs: median(floor),
      uploadOverSharpAlone: +(photoMs / Math.max(1, median(floor))).toFixed(2),
      photoBytes: big.length,
      photoPixels: '6000x4000',
      uploadMs: runs.map((r) => r.ms),
      uploadMedianMs: photoMs,
      memoryGrowthMB: runs.map((r) => r.growthMB),
      memoryGrowthMaxMB: growthMB,
      cropMs: crops,
      cropMedianMs: median(crops),
      parallel: {
        uploads: 20,
        bytesEach: small.length,
        failed,
        slowestMs: Math.round(Math.max(...parallel.result.map((r) => r.ms))),
        memoryGrowthMB: parallelGrowthMB,
      },
      pass: photoMs <= 2000 && growthMB <= 150 && failed === 0 && parallelGrowthMB <= 300,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
