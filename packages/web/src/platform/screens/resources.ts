import { isResource, type ResourceDeclaration } from '@guildhall/shared';

/**
 * Every resource declaration of `@guildhall/shared`, found by file convention (`*.resource.ts`), as the server
 * finds them: adding an entity needs no edit here. The glob is evaluated in the screens chunk only.
 */
const modules = import.meta.glob<Record<string, unknown>>('../../../../shared/src/**/*.resource.ts', {
  eager: true,
});

export const RESOURCES: readonly ResourceDeclaration[] = Object.values(modules).flatMap((m) =>
  Object.values(m).filter(isResource),
);

const lower = (s: string) => s.toLowerCase();

/** The resource behind `/micronet/list/{feature}/{subfeature}` (URL parts compared case-insensitively). */
export function resourceByRoute(feature: string, subfeature: string): ResourceDeclaration | null {
  return (
    RESOURCES.find((r) => lower(r.feature) === lower(feature) && lower(r.subfeature) === lower(subfeature)) ??
    null
  );
}

export function resourceByName(name: string): ResourceDeclaration | null {
  return RESOURCES.find((r) => r.name === name) ?? null;
}

/** `/api/{feature}/{subfeature}` */
export const apiBase = (r: Pick<ResourceDeclaration, 'feature' | 'subfeature'>) =>
  `/api/${r.feature}/${r.subfeature}`;

/** `/micronet/list/{feature}/{subfeature}` */
export const listPath = (r: Pick<ResourceDeclaration, 'feature' | 'subfeature'>) =>
  `/micronet/list/${r.feature}/${r.subfeature}`;

export const recordPath = (r: Pick<ResourceDeclaration, 'feature' | 'subfeature'>, id: string | number) =>
  `${listPath(r)}/${encodeURIComponent(String(id))}`;
