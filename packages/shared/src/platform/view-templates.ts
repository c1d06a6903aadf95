/**
 * Dialog templates by screen key (GET /a/ViewTemplates/Index/{screen key} and /a/ViewTemplates/Reporting): the
 * server answers which dialog component of the web opens for a key, with its title, size and properties.
 */
import type { ViewTemplate } from './list-protocol.schema.ts';

/**
 * The dialog components a view template may name: a closed list, so the web's registry of them is typed by it and
 * a template naming a component the web lacks cannot be written.
 */
export const VIEW_TEMPLATE_COMPONENTS = [
  'ReportPopup',
  'ScreenFieldsDescriptionDialog',
  'ConfirmationDialog',
  'InformationDialog',
  'TableSettingsDialog',
  'PrintPreviewDialog',
  'SignatureManager',
] as const;
export type ViewTemplateComponent = (typeof VIEW_TEMPLATE_COMPONENTS)[number];

type Template = ViewTemplate & { Component: ViewTemplateComponent };

/** The generic report popup. */
export const REPORTING_TEMPLATE_KEY = 'Reporting';

export const VIEW_TEMPLATES: Readonly<Record<string, Template>> = {
  [REPORTING_TEMPLATE_KEY]: {
    Key: REPORTING_TEMPLATE_KEY,
    Component: 'ReportPopup',
    Title: 'Report',
    Size: 'xl',
    Props: {},
  },
  'Setup.ScreenFieldsDescriptionDialog': {
    Key: 'Setup.ScreenFieldsDescriptionDialog',
    Component: 'ScreenFieldsDescriptionDialog',
    Title: 'Screen fields',
    Size: 'lg',
    Props: {},
  },
  'Reports.Membership': {
    Key: 'Reports.Membership',
    Component: 'ReportPopup',
    Title: 'Membership report',
    Size: 'xl',
    Props: { ReportId: 'users.staff' },
  },
  'Reports.Samples': {
    Key: 'Reports.Samples',
    Component: 'ReportPopup',
    Title: 'Samples report',
    Size: 'xl',
    Props: { ReportId: 'samples.byPrice' },
  },
  'Shared.Confirmation': {
    Key: 'Shared.Confirmation',
    Component: 'ConfirmationDialog',
    Title: 'Please confirm',
    Size: 'sm',
    Props: {},
  },
  'Shared.Information': {
    Key: 'Shared.Information',
    Component: 'InformationDialog',
    Title: 'Information',
    Size: 'sm',
    Props: {},
  },
  'Shared.TableSettings': {
    Key: 'Shared.TableSettings',
    Component: 'TableSettingsDialog',
    Title: 'Table settings',
    Size: 'md',
    Props: {},
  },
  'Shared.PrintPreview': {
    Key: 'Shared.PrintPreview',
    Component: 'PrintPreviewDialog',
    Title: 'Print preview',
    Size: 'lg',
    Props: {},
  },
  // The signature manager, opened from the editors (spec 001 section 2: "in a large modal").
  ManageSignaturesViewModel: {
    Key: 'ManageSignaturesViewModel',
    Component: 'SignatureManager',
    Title: 'Signatures',
    Size: 'xl',
    Props: {},
  },
};
