/** Ends an exhaustive switch over a union: a new case that is not handled fails type-checking. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
