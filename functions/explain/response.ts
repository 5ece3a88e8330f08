import { z } from 'zod';
import { beyondTheSpec } from '../http/schema-meta.ts';
import { COSTS, TEMPLATES } from './sentence.ts';

/**
 * The answer of POST /explain-supersafe/ (spec 4.3 leaves its fields open; docs/explain.md) as zod
 * schemas, for the OpenAPI documents (functions/openapi/), the handler's result type and the
 * contract tests.
 */

const figures = z
  .object({
    distance: z.number().meta({ description: 'Metres.' }),
    duration: z.number().meta({ description: 'Seconds.' }),
    busy_shared: z.number().meta({ description: 'Metres ridden on busy roads and on paths shared with pedestrians.' }),
    moderate: z.number().meta({ description: 'Metres ridden on moderately busy roads.' }),
    ridden: z.number().meta({ description: 'Metres ridden (not pushed).' }),
    lit: z.number().meta({ description: 'Metres ridden on lit ways.' }),
    signed: z.record(z.string(), z.number()).meta({ description: 'Metres ridden on each signed cycle route, by its name.' }),
    risky_by_road: z.record(z.string(), z.number()).meta({ description: 'Metres on busy roads and shared paths, by the way\'s name.' }),
    crossings: z.object({ controlled: z.int(), uncontrolled: z.int() }).meta({ description: 'Times the route crosses or joins a main road, with and without signals or an all-way stop.' }),
    climb: z.number().meta({ description: "Metres climbed (the directions route's elevation_gain); 0 where no elevation model covers the city." }),
  })
  .meta({ id: 'RouteFigures', description: 'What was measured on one route; the sentence claims nothing else.' });

export const explainResponse = z
  .object({
    explanation: z.string().nullable().meta({ description: "The sentence, in the request's language; null when no route joins the coordinates." }),
    search_id: z.uuid(),
    same_route: z.boolean().nullable().meta({ description: 'Whether the two routes are the same; null when there is no route.' }),
    template: z.enum(TEMPLATES).nullable().meta({ description: 'Which sentence was chosen (docs/explain.md).' }),
    cost: z.enum(COSTS).nullable().meta({ description: 'Which cost clause ended it.' }),
    figures: z.object({ supersafe: figures, direct: figures }).nullable(),
    graph_version: z.string(),
    metadata: z.object({
      nighttime: z.boolean(),
      waypoint_count: z.int(),
      avoid_hills: z.boolean().meta({ description: 'Beyond the spec: whether both routes were planned with the hill preference (`avoid_hills`).', ...beyondTheSpec }),
      alternative: z.int().optional().meta({ description: 'Beyond the spec: with `alternative` asked, which of the direct route\'s alternatives `figures.direct` measures.', ...beyondTheSpec }),
    }),
  })
  .meta({ id: 'ExplainResponse' });
