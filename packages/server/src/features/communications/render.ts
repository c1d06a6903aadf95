/**
 * Merge fields rendered with liquidjs in strict mode (decision 0151): a template's rich text becomes Liquid (its text
 * literal, each chip its field's tag), is parsed once, and renders per recipient with the values of the render
 * context. Every field of the catalogue is present in the context (empty when the recipient has none), so the
 * `default` filter gives the field's default and strict mode catches only a tag no field has. Output is HTML-escaped;
 * block fields (IsUber) are HTML the server built from escaped values.
 */
import {
  MERGE_FIELD_CATALOGUE,
  type MergeField,
  mergeFieldUnavailable,
  templateToLiquid,
} from '@guildhall/shared';
import { Liquid, type Template } from 'liquidjs';

/** HTML the server built itself from escaped values (a block field): written as it is. */
export class SafeHtml {
  readonly html: string;
  constructor(html: string) {
    this.html = html;
  }
  toString(): string {
    return this.html;
  }
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A field whose value depends on its parameters: the `param` filter asks it. */
export class Parametrised {
  private readonly chosen: Record<string, string> = {};
  private readonly pick: (params: Record<string, string>) => string | SafeHtml;
  constructor(pick: (params: Record<string, string>) => string | SafeHtml) {
    this.pick = pick;
  }
  with(name: string, value: string): Parametrised {
    const next = new Parametrised(this.pick);
    Object.assign(next.chosen, this.chosen, { [name]: value });
    return next;
  }
  resolve(): string | SafeHtml {
    return this.pick(this.chosen);
  }
}

const engine = new Liquid({
  strictVariables: true,
  strictFilters: true,
  ownPropertyOnly: true,
  outputEscape: (value: unknown) => {
    const v = value instanceof Parametrised ? value.resolve() : value;
    if (v instanceof SafeHtml) return v.html;
    return escapeHtml(v === null || v === undefined ? '' : String(v));
  },
});
engine.registerFilter('param', (value: unknown, name: unknown, arg: unknown) =>
  value instanceof Parametrised ? value.with(String(name), String(arg ?? '')) : value,
);
// `default` must see a parametrised field's result, not the object that carries it.
engine.registerFilter('default', (value: unknown, fallback: unknown) => {
  const v = value instanceof Parametrised ? value.resolve() : value;
  if (v instanceof SafeHtml) return v.html === '' ? fallback : v;
  return v === null || v === undefined || v === '' || v === false ? fallback : v;
});

/** Values of one recipient: `Group.Field` names to a value (missing ones render empty or their default). */
export type MergeValues = Record<string, string | SafeHtml | Parametrised | null | undefined>;

export interface CompiledTemplate {
  render(values: MergeValues): string;
  fields: string[];
}

export class TemplateError extends Error {
  readonly messages: string[];
  constructor(messages: string[]) {
    super(messages.join(' '));
    this.messages = messages;
  }
}

/** The render context Liquid reads: every field of the catalogue present, grouped (`Contact.FirstName`). */
function contextOf(
  values: MergeValues,
  extra: readonly MergeField[],
): Record<string, Record<string, unknown>> {
  const ctx: Record<string, Record<string, unknown>> = {};
  for (const f of [...MERGE_FIELD_CATALOGUE, ...extra]) {
    const [group, name] = f.Name.split('.') as [string, string];
    ctx[group] ??= {};
    const v = values[f.Name];
    (ctx[group] as Record<string, unknown>)[name] = v ?? '';
  }
  return ctx;
}

/** Compiles rich text with merge chips once; throws TemplateError naming an unknown field or a bad parameter. */
export function compileTemplate(
  html: string,
  /** A system message's own fields (decision 0154). */
  extra: { fields: readonly MergeField[]; links: readonly string[] } = { fields: [], links: [] },
): CompiledTemplate {
  const { liquid, fields, errors } = templateToLiquid(html, extra);
  if (errors.length > 0) throw new TemplateError(errors);
  let parsed: Template[];
  try {
    parsed = engine.parse(liquid);
  } catch (e) {
    throw new TemplateError([e instanceof Error ? e.message : String(e)]);
  }
  return {
    fields,
    render(values) {
      return engine.renderSync(parsed, contextOf(values, extra.fields)) as string;
    },
  };
}

/** Text with merge chips rendered for a subject line: the same rules, then the markup dropped. */
export function compileSubject(subject: string): CompiledTemplate {
  return compileTemplate(subject);
}

/** A field's value checked against the catalogue: a name no field has fails with the dialog's message. */
export function requireField(field: MergeField | undefined, name: string): MergeField {
  if (!field) throw new TemplateError([mergeFieldUnavailable(name)]);
  return field;
}
