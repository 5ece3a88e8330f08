export { cities, allCities, cityIds, isCityId } from './cities.ts';
export type { City, CityId, BikeShareSystem, CityGraphRecipe, NamedAreaSource } from './cities.ts';
export { cityForCoordinate, cityForCoordinates, pointInRing } from './lookup.ts';
export type { LonLat } from './lookup.ts';
