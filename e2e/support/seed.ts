export { seedTenant, unique } from '../../packages/server/test/helpers.ts';
