/** The global search box of both shells' header. */
export { HeaderSearch } from './header-search.tsx';
