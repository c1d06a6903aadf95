import { useMemo } from 'react';
import type { FieldContext } from '../fields/field-types.ts';
import { useIdentity } from '../identity.ts';
import { apiBase, resourceByName } from './resources.ts';

/** The tenant settings the field rules need, and where a lookup finds its choices. */
export function useFieldContext(): FieldContext {
  const me = useIdentity();
  const { websitePrefix, defaultTimezone } = me.tenant.settings;
  return useMemo(
    () => ({
      websitePrefix,
      timeZone: defaultTimezone,
      lookupUrl: (source: string) => {
        const r = resourceByName(source);
        return r ? `${apiBase(r)}/${r.view}Lookup` : null;
      },
    }),
    [websitePrefix, defaultTimezone],
  );
}
