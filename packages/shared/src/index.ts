export * from './platform/auth.schema.ts';
export * from './platform/shell.schema.ts';
export * from './platform/permissions.ts';
