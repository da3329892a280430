// The shape of a calibration entry, for every engine's calibration.ts: a number the model takes that is
// not an engine constant and not read from the server, with where it came from, so that the whole
// calibration can be seen, diffed and refitted in one place.

export interface CalibrationEntry {
  value: number;
  /** What the number decides, in the model's words. */
  what: string;
  /**
   * Where it came from: the recordings it was fitted on, or, for a gate set by hand between two
   * mechanisms, that it was not fitted and why it stands where it does.
   */
  provenance: string;
  /** The engine versions it was measured or checked on. */
  versions: string;
}

/** The entries' values by name, for the model to read. */
export function values<K extends string>(entries: Record<K, CalibrationEntry>): Record<K, number> {
  return Object.fromEntries(Object.entries<CalibrationEntry>(entries).map(([k, e]) => [k, e.value])) as Record<K, number>;
}
