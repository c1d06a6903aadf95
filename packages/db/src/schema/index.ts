export * from './platform.ts';
