import { displayTimeZone } from '@guildhall/shared';
import { useMemo } from 'react';
import type { FieldContext } from '../fields/field-types.ts';
import { useIdentity } from '../identity.ts';
import { apiBase, resourceByName } from './resources.ts';

/** The tenant settings the field rules need, and where a lookup finds its choices. */
export function useFieldContext(): FieldContext {
  const me = useIdentity();
  const { websitePrefix } = me.tenant.settings;
  // Times are typed in the zone they are shown in: the user's own, else the association's.
  const timeZone = displayTimeZone(me);
  return useMemo(
    () => ({
      websitePrefix,
      timeZone,
      lookupUrl: (source: string) => {
        const r = resourceByName(source);
        return r ? `${apiBase(r)}/${r.view}Lookup` : null;
      },
    }),
    [websitePrefix, timeZone],
  );
}
