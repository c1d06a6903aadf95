import { describe, expect, it } from 'vitest';
import { TENANT_PROVISIONED, tenantProvisionedPayload } from './signup.events.ts';

describe('tenant.provisioned', () => {
  it('carries the new association and its first administrator', () => {
    expect(TENANT_PROVISIONED).toBe('tenant.provisioned');
    const payload = { tenantId: '0b6c3c1e-8f0a-4d5e-9c1b-2a3b4c5d6e7f', administratorUserId: 12 };
    expect(tenantProvisionedPayload.parse(payload)).toEqual(payload);
  });

  it('refuses a payload without ids', () => {
    expect(tenantProvisionedPayload.safeParse({ tenantId: 'acme', administratorUserId: 12 }).success).toBe(
      false,
    );
    expect(
      tenantProvisionedPayload.safeParse({
        tenantId: '0b6c3c1e-8f0a-4d5e-9c1b-2a3b4c5d6e7f',
        administratorUserId: 0,
      }).success,
    ).toBe(false);
  });
});
