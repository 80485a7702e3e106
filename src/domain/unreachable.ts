/**
 * The one exhaustiveness check: a `switch` over a union ends with `default: return unreachable(x,
 * 'op kind')`. TypeScript refuses the call when a member of the union has no case (the argument is
 * not `never`); at run time a value from an older or newer version throws with its name.
 */
export function unreachable(value: never, what: string): never {
  // An object (a push step, a stop reason) is shown whole; a string or number as it is.
  const shown = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  throw new Error(`Unexpected ${what}: ${shown}`);
}
