import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The import boundaries of biome.json, checked on probe files: the repository's lint configuration is copied into a
 * scratch folder laid out like the repository, a probe file is written at the path under test and linted there.
 */
const root = resolve(import.meta.dirname, '../../..');
const biome = join(root, 'node_modules/.bin/biome');
const scratch = mkdtempSync(join(tmpdir(), 'guildhall-lint-'));
const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
delete config.$schema;
delete config.vcs;
writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function lint(path: string, source: string): string {
  const file = join(scratch, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  try {
    execFileSync(biome, ['lint', '--max-diagnostics=5', path], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return '';
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return `${stdout}${stderr}`;
  } finally {
    rmSync(file);
  }
}

const PLATFORM = 'never imports a feature';
const FEATURE = 'only through its public module';

describe('lint boundaries', () => {
  it('refuses an import from platform/ into features/ in every package', () => {
    expect(
      lint(
        'packages/web/src/platform/screens/probe.ts',
        "export * from '../../features/contacts/index.ts';\n",
      ),
    ).toContain(PLATFORM);
    expect(
      lint(
        'packages/server/src/platform/probe.ts',
        "export * from '../features/contacts/contacts.module.ts';\n",
      ),
    ).toContain(PLATFORM);
    expect(
      lint('packages/shared/src/platform/probe.ts', "export * from '../contacts/contacts.resource.ts';\n"),
    ).toContain(PLATFORM);
    expect(
      lint(
        'packages/shared/src/platform/fields/probe.ts',
        "export * from '../../contacts/entry.rules.ts';\n",
      ),
    ).toContain(PLATFORM);
  });

  it("refuses a feature reaching into another feature's files, not its public module", () => {
    expect(
      lint(
        'packages/web/src/features/users/probe.ts',
        "export * from '../impersonation/impersonate-button.tsx';\n",
      ),
    ).toContain(FEATURE);
    expect(
      lint('packages/server/src/features/users/probe.ts', "export * from '../contacts/contacts.repo.ts';\n"),
    ).toContain(FEATURE);
  });

  it('allows the platform, a feature its own files, and another feature through its module', () => {
    const allowed = [
      "export * from '../impersonation/index.ts';\n",
      "export * from '../../platform/page.tsx';\n",
      "export * from './users-api.ts';\n",
    ].join('');
    expect(lint('packages/web/src/features/users/probe.ts', allowed)).toBe('');
    expect(
      lint(
        'packages/server/src/features/users/probe.ts',
        "export * from '../contacts/contacts.module.ts';\n",
      ),
    ).toBe('');
    expect(
      lint('packages/shared/src/platform/fields/probe.ts', "export * from '../messages.rules.ts';\n"),
    ).toBe('');
  });
});
