export * from './client.ts';
export * from './kept-statements.ts';
export * from './passwords.ts';
export * as schema from './schema/index.ts';
export * from './schema/index.ts';
export * from './statement.ts';
export * from './tenant-scope.ts';
