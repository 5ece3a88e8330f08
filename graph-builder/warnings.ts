/**
 * Counts of input the builder could not use as tagged and fell back on a default for, e.g.
 * "312 ways with unparseable maxspeed". Bad data never stops a build; it shows up here and in
 * the build report with a few example values.
 */
export class Warnings {
  private readonly counts = new Map<string, { count: number; examples: string[] }>();

  count(key: string, example?: string): void {
    let entry = this.counts.get(key);
    if (!entry) {
      entry = { count: 0, examples: [] };
      this.counts.set(key, entry);
    }
    entry.count++;
    if (example !== undefined && entry.examples.length < 3 && !entry.examples.includes(example)) entry.examples.push(example);
  }

  /** Adds another set's counts (examples included) to this one. */
  add(other: Warnings): void {
    for (const [key, { count, examples }] of other.counts) {
      for (let i = 0; i < count; i++) this.count(key, examples[i % Math.max(1, examples.length)]);
    }
  }

  get(key: string): number {
    return this.counts.get(key)?.count ?? 0;
  }

  entries(): { key: string; count: number; examples: string[] }[] {
    return [...this.counts.entries()]
      .map(([key, { count, examples }]) => ({ key, count, examples }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  }
}
