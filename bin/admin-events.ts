/**
 * The `events` command group of the operator CLI (bin/admin.ts hands it the arguments):
 *
 *   npm run admin -- events list [--city <name or id>]
 *   npm run admin -- events show <id>
 *   npm run admin -- events create --name <name> --emoji <emoji> --image-url <url> --destination <id>
 *                    [--description <text>] [--start <ISO time> --end <ISO time>]   (no times: a leisure route)
 *                    [--category <name> ...] [--via <lon,lat> --via <lon,lat> ... | --polyline <encoded>]
 *                    [--image <url> ...] [--created-by <identity-provider user id>]
 *   npm run admin -- events update <id> [any of the create options] [--leisure] [--no-route]
 *   npm run admin -- events archive <id>
 *   npm run admin -- events categories list|create --name <name> --emoji <emoji>|update <id> [--name] [--emoji]
 *   npm run admin -- events destinations list|create --name <name> --latitude <lat> --longitude <lon> --area <area>
 *                    [--category <name> ...]|update <id> [...]
 *
 * `--via` waypoints are planned into a cycling route on the city's graph (as /directions/v2/
 * plans it); `city` is computed from the route or the destination. docs/events.md has the rules.
 */
import { parseArgs } from 'node:util';
import { cities } from '../core/cities/index.ts';
import {
  createCategory,
  createDestination,
  EventInputError,
  listCategories,
  listDestinations,
  updateCategory,
  updateDestination,
} from '../functions/events/catalogue.ts';
import { eventFlags, type EventItem } from '../functions/events/model.ts';
import { cityNamed } from '../functions/events/nearby.ts';
import { archiveEvent, createEvent, eventById, listEvents, updateEvent, type EventInput, type RouteInput } from '../functions/events/records.ts';
import { joinNegativeValues } from './command-line.ts';

const DEFAULT_CREATOR = 'operator';

function parse(argv: string[]) {
  return parseArgs({
    args: joinNegativeValues(argv, ['longitude', 'latitude', 'via']),
    allowPositionals: true,
    options: {
      aws: { type: 'boolean', default: false },
      name: { type: 'string' },
      description: { type: 'string' },
      emoji: { type: 'string' },
      'image-url': { type: 'string' },
      image: { type: 'string', multiple: true },
      start: { type: 'string' },
      end: { type: 'string' },
      leisure: { type: 'boolean', default: false },
      destination: { type: 'string' },
      category: { type: 'string', multiple: true },
      via: { type: 'string', multiple: true },
      polyline: { type: 'string' },
      'no-route': { type: 'boolean', default: false },
      'created-by': { type: 'string' },
      latitude: { type: 'string' },
      longitude: { type: 'string' },
      area: { type: 'string' },
      city: { type: 'string' },
    },
  });
}

type Values = ReturnType<typeof parse>['values'];

class Usage extends Error {}

function idArgument(value: string | undefined, usage: string): number {
  const id = Number(value);
  if (!value || !Number.isSafeInteger(id) || id <= 0) throw new Usage(usage);
  return id;
}

function number(values: Values, name: 'latitude' | 'longitude' | 'destination'): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const parsed = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(parsed)) throw new Usage(`--${name} must be a number`);
  return parsed;
}

function route(values: Values): RouteInput | null | undefined {
  if (values['no-route']) return null;
  if (values.polyline !== undefined) return { polyline: values.polyline };
  if (!values.via) return undefined;
  return {
    via: values.via.map((point) => {
      const parts = point.split(',').map(Number);
      if (parts.length !== 2 || parts.some((part) => !Number.isFinite(part))) throw new Usage(`--via ${point}: give longitude,latitude`);
      return [parts[0]!, parts[1]!] as [number, number];
    }),
  };
}

/** The event fields the options give; absent options are left out (update keeps them). */
function eventFields(values: Values): Partial<EventInput> {
  const fields: Partial<EventInput> = {};
  if (values.name !== undefined) fields.name = values.name;
  if (values.description !== undefined) fields.description = values.description;
  if (values.emoji !== undefined) fields.emoji = values.emoji;
  if (values['image-url'] !== undefined) fields.image_url = values['image-url'];
  if (values.image !== undefined) fields.images = values.image.map((url) => ({ image_url: url }));
  if (values.leisure) Object.assign(fields, { start_time: null, end_time: null });
  if (values.start !== undefined) fields.start_time = values.start;
  if (values.end !== undefined) fields.end_time = values.end;
  const destination = number(values, 'destination');
  if (destination !== undefined) fields.destination_id = destination;
  if (values.category !== undefined) fields.categories = values.category;
  const planned = route(values);
  if (planned !== undefined) fields.route = planned;
  return fields;
}

function describeEvent(event: EventItem): string {
  const flags = eventFlags(event, Date.now());
  const state = event.archived_at
    ? 'archived'
    : flags.is_leisure_route
      ? 'leisure'
      : flags.is_happening_now
        ? 'ongoing'
        : flags.is_future
          ? 'future'
          : 'ended';
  const when = event.start_time ? `${event.start_time} - ${event.end_time}` : 'permanent';
  return [String(event.id).padStart(4), state.padEnd(8), cities[event.city].name.padEnd(24), when.padEnd(43), event.name].join('  ');
}

async function categories(command: string | undefined, argument: string | undefined, values: Values): Promise<void> {
  switch (command) {
    case 'list':
      for (const category of await listCategories()) console.log(`${String(category.id).padStart(4)}  ${category.emoji}  ${category.name}`);
      return;
    case 'create': {
      const created = await createCategory({ name: values.name ?? '', emoji: values.emoji ?? '' });
      console.log(`Created category ${created.id}: ${created.emoji} ${created.name}`);
      return;
    }
    case 'update': {
      const id = idArgument(argument, 'Usage: admin events categories update <id> [--name <name>] [--emoji <emoji>]');
      const updated = await updateCategory(id, { ...(values.name !== undefined ? { name: values.name } : {}), ...(values.emoji !== undefined ? { emoji: values.emoji } : {}) });
      console.log(`Updated category ${updated.id}: ${updated.emoji} ${updated.name}`);
      return;
    }
    default:
      throw new Usage('Usage: admin events categories list|create|update ...');
  }
}

async function destinations(command: string | undefined, argument: string | undefined, values: Values): Promise<void> {
  const fields = () => ({
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(values.latitude !== undefined ? { latitude: number(values, 'latitude') } : {}),
    ...(values.longitude !== undefined ? { longitude: number(values, 'longitude') } : {}),
    ...(values.area !== undefined ? { area_name: values.area } : {}),
    ...(values.category !== undefined ? { categories: values.category } : {}),
  });
  const describe = (destination: { id: number; name: string; area_name: string; city: keyof typeof cities; latitude: number; longitude: number }) =>
    `${String(destination.id).padStart(4)}  ${cities[destination.city].name.padEnd(24)}  ${destination.area_name.padEnd(20)}  ${destination.longitude},${destination.latitude}  ${destination.name}`;
  switch (command) {
    case 'list':
      for (const destination of await listDestinations()) console.log(describe(destination));
      return;
    case 'create': {
      const created = await createDestination(fields() as Parameters<typeof createDestination>[0]);
      console.log(`Created destination ${created.id}:\n${describe(created)}`);
      return;
    }
    case 'update': {
      const id = idArgument(argument, 'Usage: admin events destinations update <id> [--name] [--latitude] [--longitude] [--area] [--category ...]');
      const updated = await updateDestination(id, fields());
      console.log(`Updated destination ${updated.id}:\n${describe(updated)}`);
      return;
    }
    default:
      throw new Usage('Usage: admin events destinations list|create|update ...');
  }
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  const [, command, argument, extra] = positionals;
  switch (command) {
    case 'categories':
      return categories(argument, extra, values);
    case 'destinations':
      return destinations(argument, extra, values);
    case 'list': {
      const city = values.city === undefined ? undefined : cityNamed(values.city);
      if (values.city !== undefined && !city) throw new Usage(`--city ${values.city}: not a covered city`);
      for (const event of await listEvents()) if (!city || event.city === city.id) console.log(describeEvent(event));
      return;
    }
    case 'show': {
      const event = await eventById(idArgument(argument, 'Usage: admin events show <id>'));
      if (!event) throw new Usage(`No event ${argument}`);
      console.log(JSON.stringify(event, null, 2));
      return;
    }
    case 'create': {
      const input = { created_by: values['created-by'] ?? DEFAULT_CREATOR, ...eventFields(values) } as EventInput;
      const created = await createEvent(input);
      console.log(`Created event ${created.id} (${created.alias}):\n${describeEvent(created)}`);
      if (created.route) console.log(`  route: ${created.route.distance} m, ${Math.round(created.route.duration / 60)} min`);
      return;
    }
    case 'update': {
      const id = idArgument(argument, 'Usage: admin events update <id> [options]');
      const updated = await updateEvent(id, eventFields(values));
      console.log(`Updated event ${updated.id} (${updated.alias}):\n${describeEvent(updated)}`);
      return;
    }
    case 'archive': {
      const archived = await archiveEvent(idArgument(argument, 'Usage: admin events archive <id>'));
      console.log(`Archived event ${archived.id}: it is no longer listed nearby, and stays readable for rides tied to it.`);
      return;
    }
    default:
      throw new Usage('Usage: admin events list|show|create|update|archive|categories|destinations ... (see bin/admin-events.ts)');
  }
}

/** Runs the command; a refused change or a usage mistake prints its message and exits 2. */
export async function eventsAdmin(argv: string[], connect: (aws: boolean) => Promise<void>): Promise<void> {
  try {
    await connect(argv.includes('--aws'));
    await run(argv);
  } catch (error) {
    if (!(error instanceof Usage || error instanceof EventInputError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) throw error;
    console.error((error as Error).message);
    process.exitCode = 2;
  }
}
