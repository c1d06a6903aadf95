import { hash, verify } from '@node-rs/argon2';

/** argon2id, 19 MiB, t=2, p=1 (OWASP's minimum for argon2id). */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, OPTIONS);
}

export async function verifySecret(storedHash: string, secret: string): Promise<boolean> {
  try {
    return await verify(storedHash, secret);
  } catch {
    return false;
  }
}

/** A valid hash of a random secret: verifying against it costs what a real check costs (no timing oracle). */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashSecret(`decoy-${Math.random()}`);
  return decoy;
}
