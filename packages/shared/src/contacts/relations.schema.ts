/**
 * A contact's related contacts as its record shows them: every live link that names it, from either side, with the
 * other contact's name and the relation read from this contact's side ("Employee of" here is "Employer of" there).
 */
import { z } from 'zod';
import { CONTACT_LINK_TYPES } from './contacts.rules.ts';

/** Each link type read from its related contact's side. */
export const INVERSE_LINK_NAMES: Record<(typeof CONTACT_LINK_TYPES)[number]['Id'], string> = {
  employeeOf: 'Employer of',
  primaryContact: 'Has as primary contact',
};

/** The relation of a link as read from one of its contacts: its own name, or the inverse from the other side. */
export function relationName(linkType: string, fromLinkedSide: boolean): string {
  const type = CONTACT_LINK_TYPES.find((t) => t.Id === linkType);
  if (!type) return linkType;
  return fromLinkedSide ? type.Name : INVERSE_LINK_NAMES[type.Id];
}

/** What a staff member may choose when adding a relation from a record: each type, either way round. */
export const RELATION_CHOICES = CONTACT_LINK_TYPES.flatMap((t) => [
  { value: `${t.Id}:out`, label: t.Name, LinkType: t.Id, outgoing: true },
  { value: `${t.Id}:in`, label: INVERSE_LINK_NAMES[t.Id], LinkType: t.Id, outgoing: false },
]);

export const contactRelationSchema = z.object({
  LinkId: z.number(),
  LinkType: z.string(),
  /** The relation read from this contact's side: "Employee of", "Employer of". */
  Relation: z.string(),
  OtherContactId: z.number(),
  /** "Acme Widgets (A0000015)". */
  OtherName: z.string(),
});
export type ContactRelation = z.infer<typeof contactRelationSchema>;
export const contactRelationsSchema = z.array(contactRelationSchema);
