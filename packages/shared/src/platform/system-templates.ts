/**
 * System messages (a password reset, an invitation, an invoice, an event confirmation, a renewal reminder): the
 * product's transactional mail, each declared by the feature that sends it with its default wording and the values
 * it offers (`Group.Field` merge fields with a sample each). A feature module lists its declarations
 * (`mailTemplates`); communications lets staff reword each one per association and renders it when the feature
 * sends it. In the defaults, `{{Group.Field}}` marks a value (a merge chip once loaded in the editor), and
 * `href="{{Group.Field}}"` a link field.
 */
export interface SystemTemplateField {
  /** `Group.Field`, unique within the template (a Liquid variable of its render context). */
  Name: string;
  Description: string;
  /** What previews show. */
  Sample: string;
  /** An address (a link's href), not text. */
  Link?: boolean;
}

export interface SystemTemplate {
  /** Unique across the product: `feature.message` (auth.passwordReset). */
  Key: string;
  Title: string;
  Description: string;
  /** Where it is listed (Account, Billing, Events, Memberships, Staff). */
  Group: string;
  /** Plain text with `{{Group.Field}}` values. */
  Subject: string;
  /** Simple HTML with `{{Group.Field}}` values. */
  BodyHtml: string;
  Fields: readonly SystemTemplateField[];
}

/** A system message's declaration (an identity that gives the object its type where it is written). */
export function defineSystemTemplate(template: SystemTemplate): SystemTemplate {
  return template;
}
