/**
 * London's rules for parking rental e-bikes, per borough (spec 4.2 `destination_parking`, rule 7),
 * and which of London's two rental e-bike operators serve each borough (the request's `operator`).
 *
 * Source: the compiled, cited table `other/london/london_rental_ebike_borough_parking_rules.csv`
 * of the shared data (its SOURCES.md: 33 boroughs, each row citing dated council pages and local
 * press, 2022-05 to 2026-03). This module is our own reading of it, under version control: one
 * row per borough with the compiled rule as written (`reported`), the spec's value we give riders
 * (`rule`), the operators the sources name there, and the pages behind the row. Rules change
 * often; re-check a row against its sources before relying on it, and update `AS_OF`.
 *
 * The spec knows two values, `bay_mandatory` (hires must end in a designated bay) and
 * `free_floating` (park anywhere in the borough). The compiled table has four, mapped so:
 *
 * - `bay_mandatory` -> `bay_mandatory`.
 * - `bay_mandatory_partial` (Greenwich, Haringey, Hounslow, Islington) -> `bay_mandatory`. The
 *   sources describe hires that cannot end, or are fined or moved, outside bays wherever bays
 *   operate (near a bay in Islington, the trial area in Greenwich, bay areas in Hounslow, marked or
 *   virtual locations in Haringey). The two mistakes are not alike: told "bays" where parking is
 *   free, a rider walks a little further; told "free" where bays are enforced, the hire cannot end
 *   or ends in a fine. So the rider is told to use a bay.
 * - `bays_no_mandate_confirmed` (Lambeth, Southwark) -> `free_floating`. Bays exist and riders are
 *   asked to use them, but no source states that a hire must end in one; we do not tell riders a
 *   rule no source shows.
 * - `unknown` (21 boroughs without a source) -> `free_floating`: no mandate is on record, and
 *   London has no London-wide rule requiring bays.
 *
 * Operators: `lime` (Lime) and `forest` (Forest, formerly HumanForest), the two rental e-bike
 * operators the sources name across London. An operator covers a borough when a source names it
 * as operating there (`ebike_operators_reported`); a borough without a source is covered by
 * neither. TIER, Dott, Bolt and Voi are named in a few rows but are not operators a request can
 * name. Southwark's two operators are "not named, Lime is one": Lime only.
 */

export const LONDON_EBIKE_OPERATORS = ['lime', 'forest'] as const;
export type LondonEbikeOperator = (typeof LONDON_EBIKE_OPERATORS)[number];

export const OPERATOR_NAMES: Readonly<Record<LondonEbikeOperator, string>> = { lime: 'Lime', forest: 'Forest' };

export type EbikeParkingRule = 'bay_mandatory' | 'free_floating';
export type ReportedRule = 'bay_mandatory' | 'bay_mandatory_partial' | 'bays_no_mandate_confirmed' | 'unknown';

/** The spec's value for each rule of the compiled table (reasons above). */
export const RULE_FOR_REPORTED: Readonly<Record<ReportedRule, EbikeParkingRule>> = {
  bay_mandatory: 'bay_mandatory',
  bay_mandatory_partial: 'bay_mandatory',
  bays_no_mandate_confirmed: 'free_floating',
  unknown: 'free_floating',
};

export interface BoroughRule {
  /** ONS GSS code, as in the borough polygons (`LAD13CD`). */
  gss: string;
  /** As the borough polygons name it (`LAD13NM`). */
  borough: string;
  reported: ReportedRule;
  operators: readonly LondonEbikeOperator[];
  sources: readonly string[];
}

/** When the compiled table was last checked against its sources (its newest source is 2026-03). */
export const AS_OF = '2026-03';

const none = (gss: string, borough: string): BoroughRule => ({ gss, borough, reported: 'unknown', operators: [], sources: [] });

export const LONDON_BOROUGH_RULES: readonly BoroughRule[] = [
  {
    gss: 'E09000001',
    borough: 'City of London',
    reported: 'bay_mandatory',
    operators: ['lime', 'forest'],
    sources: [
      'https://www.cityoflondon.gov.uk/services/streets/dockless-cycle-hire-in-the-city-of-london (2024-04-25)',
      'https://techregister.co.uk/?p=1403379 (2024-10)',
    ],
  },
  none('E09000002', 'Barking and Dagenham'),
  none('E09000003', 'Barnet'),
  none('E09000004', 'Bexley'),
  none('E09000005', 'Brent'),
  none('E09000006', 'Bromley'),
  {
    gss: 'E09000007',
    borough: 'Camden',
    reported: 'bay_mandatory',
    operators: ['lime', 'forest'],
    sources: [
      'https://cities-today.com/camden-sets-new-contract-obligations-for-e-bike-rental-firms/ (2023-06-20)',
      'http://beansontoast.org/town-hall-nets-over-1m-from-e-bike-contracts.html (2023-05-26)',
    ],
  },
  none('E09000008', 'Croydon'),
  none('E09000009', 'Ealing'),
  none('E09000010', 'Enfield'),
  {
    gss: 'E09000011',
    borough: 'Greenwich',
    reported: 'bay_mandatory_partial',
    operators: ['lime'],
    sources: ['https://www.royalgreenwich.gov.uk/news/2025/council-cracking-down-dockless-bike-parking'],
  },
  {
    gss: 'E09000012',
    borough: 'Hackney',
    reported: 'bay_mandatory',
    operators: ['lime'],
    sources: [
      'https://news.hackney.gov.uk/lime-dockless-bike-hire-scheme-to-launch-in-hackney/ (2022-05-19)',
      'https://opengovernment.network/decisions/131458 (2025-02-11)',
    ],
  },
  none('E09000013', 'Hammersmith and Fulham'),
  {
    gss: 'E09000014',
    borough: 'Haringey',
    reported: 'bay_mandatory_partial',
    operators: ['lime', 'forest'],
    sources: ['https://haringey.gov.uk/streets-roads-travel/haringey-streets-people/dockless-bikes'],
  },
  none('E09000015', 'Harrow'),
  none('E09000016', 'Havering'),
  none('E09000017', 'Hillingdon'),
  {
    gss: 'E09000018',
    borough: 'Hounslow',
    reported: 'bay_mandatory_partial',
    operators: ['lime'],
    sources: ['https://www.hounslow.gov.uk/info/20053/transport/2504/e-bike_rental_scheme_trial/3'],
  },
  {
    gss: 'E09000019',
    borough: 'Islington',
    reported: 'bay_mandatory_partial',
    operators: ['lime', 'forest'],
    sources: [
      'https://www.islington.media/news/first-parking-bays-for-hire-e-bikes-introduced',
      'https://northlondonnews.co.uk/local/islington/islington-council/islingtons-last-warning-to-lime-and-forest-e-bikes',
    ],
  },
  {
    gss: 'E09000020',
    borough: 'Kensington and Chelsea',
    reported: 'bay_mandatory',
    operators: ['lime', 'forest'],
    sources: [
      'https://kingsrdpartnership.com/article/rental-e-bike-parking-introduced-to-keep-pavements-clear/',
      'https://www.rbkc.gov.uk/newsroom/1000-e-bikes-seized-borough (2025-11-11)',
    ],
  },
  none('E09000021', 'Kingston upon Thames'),
  {
    gss: 'E09000022',
    borough: 'Lambeth',
    reported: 'bays_no_mandate_confirmed',
    operators: ['lime', 'forest'],
    sources: ['https://www.ianvisits.co.uk/articles/lambeth-planning-to-add-148-new-dockless-bike-parking-bays-77164/ (2024-12-03)'],
  },
  {
    gss: 'E09000023',
    borough: 'Lewisham',
    reported: 'bay_mandatory',
    operators: ['lime', 'forest'],
    sources: [
      'https://greenwichwire.co.uk/2023/09/18/parking-bays-coming-to-lewisham-in-crackdown-on-dumped-lime-bikes/',
      'https://ladywell-live.org/2026/03/20/lewisham-reaches-deal-with-lime-and-forest-on-e-bike-parking',
    ],
  },
  none('E09000024', 'Merton'),
  none('E09000025', 'Newham'),
  none('E09000026', 'Redbridge'),
  none('E09000027', 'Richmond upon Thames'),
  {
    gss: 'E09000028',
    borough: 'Southwark',
    reported: 'bays_no_mandate_confirmed',
    operators: ['lime'],
    sources: ['https://www.se1.news/southwark-dockless-bike-scooter-parking/'],
  },
  none('E09000029', 'Sutton'),
  none('E09000030', 'Tower Hamlets'),
  none('E09000031', 'Waltham Forest'),
  none('E09000032', 'Wandsworth'),
  {
    gss: 'E09000033',
    borough: 'Westminster',
    reported: 'bay_mandatory',
    operators: ['lime', 'forest'],
    sources: [
      'https://www.westminster.gov.uk/roads-and-travel/walking-and-cycling/dockless-e-bike-parking-bays',
      'https://westminsterlabour.org.uk/issues/2024/10/23/more-action-on-lime-e-bikes-in-westminster',
    ],
  },
];

const byName = new Map(LONDON_BOROUGH_RULES.map((row) => [row.borough, row]));

/** The row of a borough by the name the graph's areas give it, or undefined. */
export const boroughRule = (borough: string): BoroughRule | undefined => byName.get(borough);

export const ruleOf = (row: BoroughRule): EbikeParkingRule => RULE_FOR_REPORTED[row.reported];

export const covers = (row: BoroughRule, operator: LondonEbikeOperator): boolean => row.operators.includes(operator);
