import { contactsResource, invoicesResource, usersResource } from '@guildhall/shared';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from './resources.ts';
import { detailSections, previewFields } from './screen-options.ts';

describe("a record's Details tab beside its header card", () => {
  it("leaves out the fields the header card shows, and a section left empty (the user's)", () => {
    expect(previewFields(usersResource)).toContain('Role');
    expect(detailSections(usersResource)).toEqual([{ title: 'User', fields: ['LoginType'] }]);
  });

  it("keeps a contact's form fields that the header does not show", () => {
    const details = detailSections(contactsResource).flatMap((s) => s.fields);
    for (const f of previewFields(contactsResource)) expect(details).not.toContain(f);
    expect(details.length).toBeGreaterThan(0);
  });

  it("shows an invoice's contact once: the header's name, not the form's lookup of the same label", () => {
    const details = detailSections(invoicesResource).flatMap((s) => s.fields);
    expect(previewFields(invoicesResource)).toContain('ContactName');
    expect(details).not.toContain('ContactId');
    expect(details).toContain('Memo');
  });

  it('shows every form field of every resource once: in the header card or in Details, by field and by label', () => {
    for (const resource of RESOURCES) {
      const header = previewFields(resource).filter((f) => f in resource.fields);
      const details = detailSections(resource).flatMap((s) => s.fields);
      const label = (f: string) => resource.fields[f]?.label;
      const labels = [...header, ...details].map(label);
      const form = resource.form.flatMap((s) => s.fields).filter((f) => f in resource.fields);
      for (const f of form) {
        const times = labels.filter((l) => l === label(f)).length;
        expect({ resource: resource.name, field: f, times }).toEqual({
          resource: resource.name,
          field: f,
          times: 1,
        });
      }
    }
  });
});
