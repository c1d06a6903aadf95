import type { ColumnRendererKey, FieldDeclaration, FieldType, Model } from '@guildhall/shared';
import type { ComponentType } from 'react';

/** What every field control knows besides its value: the tenant's settings that rules depend on. */
export interface FieldContext {
  websitePrefix: string;
  timeZone: string;
  /** Finds the lookup URL of another resource by its name. */
  lookupUrl: (source: string) => string | null;
}

export interface FieldInputProps {
  name: string;
  field: FieldDeclaration;
  value: unknown;
  onChange: (value: unknown) => void;
  /** A message from the rules or the server. */
  error?: string | undefined;
  /** Changed since loaded: highlighted in orange where the screen asks for it. */
  changed?: boolean;
  /** Reports the control's own verdict (for example an email the server refused) to the form. */
  onValidity?: (error: string | null) => void;
  context: FieldContext;
}

export interface FieldDisplayProps {
  field: FieldDeclaration;
  value: unknown;
  context: Pick<FieldContext, 'timeZone'>;
  /** The value's row, where a renderer depends on another field (`contactEntry` reads `CommType`). */
  row?: Model;
}

export interface FieldRenderer {
  Display: ComponentType<FieldDisplayProps>;
  Input: ComponentType<FieldInputProps>;
}

/** TypeScript refuses a registry that misses a field type. */
export type FieldRegistry = Record<FieldType, FieldRenderer>;

/** TypeScript refuses a column renderer registry that misses a key of `COLUMN_RENDERER_KEYS`. */
export type ColumnRendererRegistry = Record<ColumnRendererKey, FieldRenderer['Display']>;
