import type { Language } from '../../core/language.ts';
import type { NoRoute, NoRouteReason } from '../../core/routing/planning/leg.ts';

/**
 * Beyond the spec: why a directions answer has `route: null`, as a code and one sentence in the
 * request's language (`metadata.no_route_reason`, `metadata.no_route_message`). Coordinates are
 * counted from 1, as a person counts them.
 */

const MESSAGES: Record<Language, Record<NoRouteReason, (coordinate: number) => string>> = {
  en: {
    outside_coverage: (coordinate) => `Coordinate ${coordinate} is outside the area the city's map covers, or more than 250 m from any road or path this profile may use at this departure.`,
    not_connected: (coordinate) => `Coordinates ${coordinate} and ${coordinate + 1} lie in parts of the map that no road or path joins.`,
    closed_at_departure: (coordinate) =>
      `No way between coordinates ${coordinate} and ${coordinate + 1} is open at this departure: closures, time rules or accepted reports close every way that joins them.`,
    impassable_for_bicycle_type: (coordinate) =>
      `Every way between coordinates ${coordinate} and ${coordinate + 1} has steps, a narrow barrier or a narrow passage this bicycle cannot take; a hybrid bicycle would have a route.`,
  },
  es: {
    outside_coverage: (coordinate) => `La coordenada ${coordinate} está fuera de la zona que cubre el mapa de la ciudad, o a más de 250 m de cualquier calle o camino que este perfil pueda usar a esta hora de salida.`,
    not_connected: (coordinate) => `Las coordenadas ${coordinate} y ${coordinate + 1} están en partes del mapa que ninguna calle ni camino une.`,
    closed_at_departure: (coordinate) =>
      `Ningún camino entre las coordenadas ${coordinate} y ${coordinate + 1} está abierto a esta hora de salida: cierres, horarios o avisos aceptados cierran todos los que las unen.`,
    impassable_for_bicycle_type: (coordinate) =>
      `Todos los caminos entre las coordenadas ${coordinate} y ${coordinate + 1} tienen escaleras, una barrera estrecha o un paso estrecho que esta bicicleta no puede tomar; una bicicleta híbrida tendría ruta.`,
  },
};

export function noRouteMessage(language: Language, { reason, index }: NoRoute): string {
  return MESSAGES[language][reason](index + 1);
}
