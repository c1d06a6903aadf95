export * from './contacts.ts';
export * from './counters.ts';
export * from './files.ts';
export * from './payments.ts';
export * from './platform.ts';
export * from './samples.ts';
export * from './screens.ts';
export * from './signup.ts';
