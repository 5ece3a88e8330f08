import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { metricCatalogue } from '../../platform/metric-catalogue.ts';

/** docs/operations.md's table of metrics says what the catalogue says: every metric, its unit and dimensions. */
describe('the metrics table of docs/operations.md', () => {
  it('lists exactly the catalogue', () => {
    const text = readFileSync(join(projectRoot, 'docs/operations.md'), 'utf8');
    const rows = [...text.matchAll(/^\| `(\w+)` \| (\w+) \| ([^|]+) \| ([^|]+) \|$/gm)].map(([, name, unit, dimensions, purpose]) => [name, unit, dimensions!.trim(), purpose!.trim()]);
    const expected = Object.entries(metricCatalogue).map(([name, definition]) => [name, definition.unit, definition.dimensions.join(', ') || '-', definition.purpose]);
    expect(rows).toEqual(expected);
  });
});
