export * from './payments.ts';
export * from './platform.ts';
