import type { Me } from '@guildhall/shared';
import { describe, expect, it } from 'vitest';
import { buildMe as me } from '../test-support/build-me.ts';
import { areaHome, flagOn, landingPath, pendingPromptPath, safeNextPath } from './identity.ts';

const prompts = (p: Partial<Me['pendingPrompts']>) => ({
  pendingPrompts: {
    terms: [],
    securityQuestion: false,
    passwordReset: false,
    usernameChange: false,
    privacyPolicy: null,
    ...p,
  },
});

describe('pendingPromptPath', () => {
  it('asks nothing when nothing is pending', () => {
    expect(pendingPromptPath(me())).toBeNull();
  });
  it('asks for a forced password change before the username and the security question', () => {
    expect(
      pendingPromptPath(me(prompts({ passwordReset: true, usernameChange: true, securityQuestion: true }))),
    ).toBe('/prompts/change-password');
    expect(pendingPromptPath(me(prompts({ usernameChange: true, securityQuestion: true })))).toBe(
      '/prompts/change-username',
    );
    expect(pendingPromptPath(me(prompts({ securityQuestion: true })))).toBe('/prompts/security-question');
  });
  it('skips every prompt while impersonating (spec 000 section 6)', () => {
    const impersonating = me({
      ...prompts({ passwordReset: true, securityQuestion: true }),
      impersonation: { impersonator: { id: 9, username: 'boss', displayName: 'Boss' } },
    });
    expect(pendingPromptPath(impersonating)).toBeNull();
  });
});

describe('safeNextPath', () => {
  it('keeps same-site paths', () => {
    expect(safeNextPath('/a/users/2?tab=flags')).toBe('/a/users/2?tab=flags');
  });
  it('refuses other sites, protocol-relative addresses, the API and sign-in itself', () => {
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/api/auth/me',
      '/sign-in',
      '',
      null,
    ]) {
      expect(safeNextPath(bad)).toBeNull();
    }
  });
});

describe('landingPath', () => {
  it('sends staff to the back office and members to the member area', () => {
    expect(landingPath(me(), null)).toBe('/a');
    expect(landingPath(me({ area: 'member' }), null)).toBe('/m');
    expect(areaHome({ area: 'member' })).toBe('/m');
  });
  it('honours the requested page only inside the user’s own area', () => {
    expect(landingPath(me(), '/a/settings')).toBe('/a/settings');
    expect(landingPath(me({ area: 'member' }), '/a/settings')).toBe('/m');
    expect(landingPath(me(), '/abc')).toBe('/a');
  });
  it('puts a pending prompt first', () => {
    expect(landingPath(me(prompts({ securityQuestion: true })), '/a/users')).toBe(
      '/prompts/security-question',
    );
  });
});

describe('flagOn', () => {
  it('reads the user’s flag and falls back to the flag’s default', () => {
    expect(flagOn(me({ featureFlags: { auditLog: false } }), 'auditLog')).toBe(false);
    expect(flagOn(me(), 'auditLog')).toBe(true);
    expect(flagOn(me(), 'betaDashboard')).toBe(false);
    expect(flagOn(me({ featureFlags: { betaDashboard: true } }), 'betaDashboard')).toBe(true);
  });
});
