import { defineFeature } from '../../platform/feature-module.ts';

/**
 * The association's settings are one single-record resource (`tenantSettings` in shared), read and saved through the
 * generic screen layer's routes like any record: the feature has no routes of its own.
 */
export const settingsModule = defineFeature({ name: 'settings' });
