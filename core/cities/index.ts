export { cities, allCities, cityIds, isCityId } from './cities.ts';
export type { City, CityId, BikeShareSystem } from './cities.ts';
export { citiesNear, cityForCoordinate, cityForCoordinates, pointInRing } from './lookup.ts';
