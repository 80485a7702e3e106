/**
 * Stand-ins for the entity screens (other helpers' pages, with their own tests): the shell tests
 * check routing, layout and guards, so each page only says which page it is and which id it got.
 * Used from vi.mock factories in the shell tests.
 */
export const page = (name: string) => () => <h1>{`${name} page`}</h1>;
export const detail = (name: string) => ({ id }: { id: string }) => <h1>{`${name} page for ${id || '(no id)'}`}</h1>;
