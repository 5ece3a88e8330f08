import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { cities, cityForCoordinate } from '../../core/cities/index.ts';
import { dynamo } from '../../platform/aws.ts';
import { batchGetItems } from '../../platform/batch-get.ts';
import { now } from '../../platform/clock.ts';
import { tableName, type TableName } from '../../platform/resources.ts';
import { nextId } from './ids.ts';
import type { Category, CategoryItem, Destination, DestinationItem } from './model.ts';
import { scanAll } from '../../platform/dynamo-pages.ts';

/** Categories and destinations (spec 2.4): created and changed by the operator, read with every event. */

/** A change the operator asked for that the rules refuse; the CLI shows the message. */
export class EventInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventInputError';
  }
}

/** The first zod problem, naming the field, as an EventInputError. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new EventInputError(`${issue.path.join('.') || 'input'}: ${issue.message}`);
}

/** Items by key (platform/batch-get.ts: 100 keys per request, retrying what DynamoDB leaves unprocessed). */
export async function batchGet<T>(table: TableName, keyName: string, keys: readonly string[]): Promise<T[]> {
  return batchGetItems<T>(tableName(table), [...new Set(keys)].map((key) => ({ [keyName]: key })));
}

const timestamp = () => now().toISOString();

// ---------------------------------------------------------------- categories

export const categoryView = ({ id, name, emoji }: CategoryItem): Category => ({ id, name, emoji });

export async function listCategories(): Promise<CategoryItem[]> {
  return (await scanAll<CategoryItem>({ TableName: tableName('categories') })).sort((a, b) => a.id - b.id);
}

const categoryFields = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters').refine((name) => !name.includes(','), 'must not contain a comma (the nearby filter separates names with commas)'),
  emoji: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(16, 'must be one emoji'),
});

export async function createCategory(input: { name: string; emoji: string }): Promise<CategoryItem> {
  const fields = parseInput(categoryFields, input);
  const existing = await listCategories();
  if (existing.some((category) => category.name_key === fields.name.toLowerCase())) throw new EventInputError(`A category named ${fields.name} exists`);
  const id = await nextId('categories');
  const item: CategoryItem = { category_id: String(id), id, ...fields, name_key: fields.name.toLowerCase(), created_at: timestamp(), updated_at: timestamp() };
  await dynamo().send(new PutCommand({ TableName: tableName('categories'), Item: item, ConditionExpression: 'attribute_not_exists(category_id)' }));
  return item;
}

export async function updateCategory(id: number, patch: { name?: string; emoji?: string }): Promise<CategoryItem> {
  const all = await listCategories();
  const current = all.find((category) => category.id === id);
  if (!current) throw new EventInputError(`No category ${id}`);
  const fields = parseInput(categoryFields, { name: patch.name ?? current.name, emoji: patch.emoji ?? current.emoji });
  if (all.some((category) => category.id !== id && category.name_key === fields.name.toLowerCase())) throw new EventInputError(`A category named ${fields.name} exists`);
  const item: CategoryItem = { ...current, ...fields, name_key: fields.name.toLowerCase(), updated_at: timestamp() };
  await dynamo().send(new PutCommand({ TableName: tableName('categories'), Item: item, ConditionExpression: 'attribute_exists(category_id)' }));
  return item;
}

/** Category ids for names given in any case; an unknown name is refused. */
export async function categoryIdsByName(names: readonly string[]): Promise<number[]> {
  const byKey = new Map((await listCategories()).map((category) => [category.name_key, category.id]));
  return [...new Set(names.map((name) => {
    const id = byKey.get(name.trim().toLowerCase());
    if (id === undefined) throw new EventInputError(`No category named ${name.trim()}`);
    return id;
  }))];
}

// ---------------------------------------------------------------- destinations

export function destinationView(item: DestinationItem, categoriesById: ReadonlyMap<number, CategoryItem>): Destination {
  return {
    id: item.id,
    name: item.name,
    latitude: item.latitude,
    longitude: item.longitude,
    area_name: item.area_name,
    city: cities[item.city].name,
    categories: item.category_ids.flatMap((id) => {
      const category = categoriesById.get(id);
      return category ? [categoryView(category)] : [];
    }),
  };
}

export async function getDestination(id: number): Promise<DestinationItem | null> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName('destinations'), Key: { destination_id: String(id) } }));
  return (result.Item as DestinationItem | undefined) ?? null;
}

export async function listDestinations(): Promise<DestinationItem[]> {
  return (await scanAll<DestinationItem>({ TableName: tableName('destinations') })).sort((a, b) => a.id - b.id);
}

const destinationFields = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  latitude: z.number({ error: 'must be a number' }).min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90'),
  longitude: z.number({ error: 'must be a number' }).min(-180, 'must be between -180 and 180').max(180, 'must be between -180 and 180'),
  area_name: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters'),
  categories: z.array(z.string()).default([]),
});

export type DestinationInput = z.input<typeof destinationFields>;

async function destinationItem(fields: z.output<typeof destinationFields>, base: Pick<DestinationItem, 'id' | 'created_at'>): Promise<DestinationItem> {
  const city = cityForCoordinate([fields.longitude, fields.latitude]);
  if (!city) throw new EventInputError(`The destination at ${fields.longitude},${fields.latitude} is in none of the covered cities`);
  return {
    destination_id: String(base.id),
    id: base.id,
    name: fields.name,
    latitude: fields.latitude,
    longitude: fields.longitude,
    area_name: fields.area_name,
    city: city.id,
    category_ids: await categoryIdsByName(fields.categories),
    created_at: base.created_at,
    updated_at: timestamp(),
  };
}

export async function createDestination(input: DestinationInput): Promise<DestinationItem> {
  const fields = parseInput(destinationFields, input);
  const item = await destinationItem(fields, { id: await nextId('destinations'), created_at: timestamp() });
  await dynamo().send(new PutCommand({ TableName: tableName('destinations'), Item: item, ConditionExpression: 'attribute_not_exists(destination_id)' }));
  return item;
}

export async function updateDestination(id: number, patch: Partial<DestinationInput>): Promise<DestinationItem> {
  const current = await getDestination(id);
  if (!current) throw new EventInputError(`No destination ${id}`);
  const categoriesById = new Map((await listCategories()).map((category) => [category.id, category]));
  const fields = parseInput(destinationFields, {
    name: patch.name ?? current.name,
    latitude: patch.latitude ?? current.latitude,
    longitude: patch.longitude ?? current.longitude,
    area_name: patch.area_name ?? current.area_name,
    categories: patch.categories ?? current.category_ids.flatMap((categoryId) => categoriesById.get(categoryId)?.name ?? []),
  });
  const item = await destinationItem(fields, current);
  // Events without a route take their city from the destination and keep it (GSI by-city).
  if (item.city !== current.city) throw new EventInputError(`Destination ${id} is in ${cities[current.city].name}; a place in another city is a new destination`);
  await dynamo().send(new PutCommand({ TableName: tableName('destinations'), Item: item, ConditionExpression: 'attribute_exists(destination_id)' }));
  return item;
}
