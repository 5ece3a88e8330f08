/**
 * The `routes` and `parking` command groups of the operator CLI (bin/admin.ts hands them the
 * arguments):
 *
 *   npm run admin -- routes list
 *   npm run admin -- routes show <uuid>
 *   npm run admin -- routes create --name <name> --start <lon>,<lat>,<name> [--stop <lon>,<lat>,<name> ...]
 *                    --end <lon>,<lat>,<name> [--created-by <id>]
 *   npm run admin -- routes delete <uuid>
 *
 *   npm run admin -- parking publish [--city <id> ...]          compile the shared data's cycle parking and publish it
 *   npm run admin -- parking publish-bays --city london --file <bays.geojson>
 *                    --source-name <text> --licence <text> --attribution <text>
 *
 * Saved custom routes (spec 2.7) are planned through their points on the city graph when created
 * and named by their UUID in multi-modal requests (`event_id`); docs/multimodal.md. With --aws
 * the CLI works on a deployment (TABLE_CUSTOM_ROUTES, BUCKET_GRAPHS, SPOKE_DATA_PATH for the data).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { cityIds, isCityId, type CityId } from '../core/cities/index.ts';
import { sharedDataPath } from '../lib/local/paths.ts';
import { createCustomRoute, CustomRouteInputError, deleteCustomRoute, getCustomRoute, listCustomRoutes, type CustomRouteItem } from '../functions/customroutes/records.ts';
import { bayDataset, compileParkingDatasets } from '../functions/multimodal/parking/datasets.ts';
import { publishDataset } from '../functions/multimodal/parking/spots.ts';
import { joinNegativeValues } from './command-line.ts';

class Usage extends Error {}

function parse(argv: string[]) {
  return parseArgs({
    args: joinNegativeValues(argv, ['start', 'stop', 'end']),
    allowPositionals: true,
    options: {
      aws: { type: 'boolean', default: false },
      name: { type: 'string' },
      start: { type: 'string' },
      stop: { type: 'string', multiple: true },
      end: { type: 'string' },
      'created-by': { type: 'string' },
      city: { type: 'string', multiple: true },
      file: { type: 'string' },
      'source-name': { type: 'string' },
      licence: { type: 'string' },
      attribution: { type: 'string' },
    },
  });
}

/** `<lon>,<lat>,<name>`: the name is everything after the second comma. */
function point(option: string, value: string | undefined): { name: string; location: [number, number] } {
  const match = value ? /^\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,(.+)$/.exec(value) : null;
  if (!match) throw new Usage(`--${option} takes <longitude>,<latitude>,<name>, e.g. --${option} -0.1296,51.5247,"Tavistock Square"`);
  return { name: match[3]!.trim(), location: [Number(match[1]), Number(match[2])] };
}

function describe(route: CustomRouteItem): string {
  const stops = [route.start, ...route.stops, route.end].map((stop) => stop.name).join(' -> ');
  return [route.route_id, route.city.padEnd(11), `${(route.distance / 1000).toFixed(1)} km`.padEnd(8), route.name, `\n    ${stops}`].join('  ');
}

async function routes(command: string | undefined, argument: string | undefined, values: ReturnType<typeof parse>['values']): Promise<void> {
  switch (command) {
    case 'list':
      for (const route of await listCustomRoutes()) console.log(describe(route));
      return;
    case 'show': {
      const route = argument ? await getCustomRoute(argument) : null;
      if (!route) throw new Usage(`No custom route ${argument ?? '(give its UUID)'}`);
      console.log(JSON.stringify(route, null, 2));
      return;
    }
    case 'create': {
      if (!values.name) throw new Usage('--name is required');
      try {
        const route = await createCustomRoute({
          name: values.name,
          start: point('start', values.start),
          stops: (values.stop ?? []).map((stop) => point('stop', stop)),
          end: point('end', values.end),
          ...(values['created-by'] ? { created_by: values['created-by'] } : {}),
        });
        console.log(describe(route));
        console.log(`\nevent_id for multi-modal requests: ${route.route_id}`);
      } catch (error) {
        if (error instanceof CustomRouteInputError) throw new Usage(error.message);
        throw error;
      }
      return;
    }
    case 'delete':
      if (!argument || !(await deleteCustomRoute(argument))) throw new Usage(`No custom route ${argument ?? '(give its UUID)'}`);
      console.log(`Deleted ${argument}; multi-modal requests naming it plan without it from now on.`);
      return;
    default:
      throw new Usage('Usage: admin routes list|show|create|delete ... (see bin/admin-routes.ts)');
  }
}

function citiesOf(values: ReturnType<typeof parse>['values']): CityId[] {
  const named = values.city ?? [...cityIds];
  const unknown = named.filter((city) => !isCityId(city));
  if (unknown.length) throw new Usage(`Unknown cities ${unknown.join(', ')} (known: ${cityIds.join(', ')})`);
  return named as CityId[];
}

async function parking(command: string | undefined, values: ReturnType<typeof parse>['values']): Promise<void> {
  switch (command) {
    case 'publish':
      for (const dataset of await compileParkingDatasets(sharedDataPath(), citiesOf(values))) {
        await publishDataset(dataset);
        console.log(`${dataset.city}: ${dataset.spots.length} ${dataset.kind} spots published (${dataset.source.name})`);
      }
      return;
    case 'publish-bays': {
      const [city] = citiesOf(values);
      if (!values.file || !values['source-name'] || !values.licence || !values.attribution || values.city?.length !== 1) {
        throw new Usage('Usage: admin parking publish-bays --city <id> --file <bays.geojson> --source-name <text> --licence <text> --attribution <text>');
      }
      let dataset;
      try {
        dataset = bayDataset(city!, await readFile(values.file, 'utf8'), { name: values['source-name'], licence: values.licence, attribution: values.attribution });
      } catch (error) {
        throw new Usage(`${values.file}: ${(error as Error).message}`);
      }
      await publishDataset(dataset);
      console.log(`${city}: ${dataset.spots.length} designated e-bike bays published`);
      return;
    }
    default:
      throw new Usage('Usage: admin parking publish|publish-bays ... (see bin/admin-routes.ts)');
  }
}

export async function routesAdmin(argv: string[], environment: (aws: boolean) => Promise<void>): Promise<void> {
  const { values, positionals } = parse(argv);
  const [group, command, argument] = positionals;
  try {
    await environment(values.aws);
    if (group === 'parking') return await parking(command, values);
    return await routes(command, argument, values);
  } catch (error) {
    if (error instanceof Usage) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
