import { describe, expect, it } from 'vitest';
import { allCities, cityForCoordinate, cityForCoordinates } from '../../core/cities/index.ts';
import { graphRecipes } from '../../graph-builder/city-recipes.ts';

describe('city registry', () => {
  it('has the four cities with zones, lighting data and bike share', () => {
    expect(allCities.map((c) => [c.id, c.timeZone, c.lightingData])).toEqual([
      ['london', 'Europe/London', true],
      ['new-york', 'America/New_York', true],
      ['los-angeles', 'America/Los_Angeles', false],
      ['sf-bay', 'America/Los_Angeles', false],
    ]);
    expect(allCities.map((c) => c.bikeShare[0]!.name)).toEqual(['Santander Cycles', 'Citi Bike', 'Metro Bike Share', 'Bay Wheels']);
    expect(graphRecipes.london.areas?.kind).toBe('london_borough');
  });
});

describe('cityForCoordinate', () => {
  const cases: [string, [number, number], string | null][] = [
    ['Bloomsbury', [-0.13, 51.522], 'london'],
    ['Waterloo Bridge, over the Thames', [-0.117, 51.5085], 'london'],
    ['Muswell Hill', [-0.1436, 51.5903], 'london'],
    ['Watford, outside Greater London', [-0.396, 51.656], null],
    ['Hudson River Greenway', [-74.0135, 40.726], 'new-york'],
    ['Brooklyn Bridge, over the East River', [-73.9969, 40.7061], 'new-york'],
    ['Jersey City, Exchange Place', [-74.0329, 40.7163], null],
    ['Hoboken', [-74.029, 40.744], null],
    ['UCLA', [-118.4452, 34.0689], 'los-angeles'],
    ['Pasadena', [-118.18, 34.142], 'los-angeles'],
    ['West Oakland', [-122.3, 37.808], 'sf-bay'],
    ['Berkeley', [-122.26, 37.875], 'sf-bay'],
    ['Ferry Building, San Francisco', [-122.3937, 37.7955], 'sf-bay'],
    ['Paris', [2.35, 48.857], null],
  ];
  it.each(cases)('%s', (_label, coordinate, city) => {
    expect(cityForCoordinate(coordinate)?.id ?? null).toBe(city);
  });
});

describe('cityForCoordinates', () => {
  it('returns the one city of all points, or null across cities or outside them', () => {
    expect(cityForCoordinates([[-0.13, 51.522], [-0.143, 51.59]])?.id).toBe('london');
    expect(cityForCoordinates([[-0.13, 51.522], [-73.99, 40.75]])).toBeNull();
    expect(cityForCoordinates([[-0.13, 51.522], [2.35, 48.857]])).toBeNull();
    expect(cityForCoordinates([])).toBeNull();
  });
});
