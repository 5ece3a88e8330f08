// Typings for the parts of osrm-text-instructions the narrative uses.
declare module 'osrm-text-instructions' {
  interface InstructionStep {
    maneuver: { type: string; modifier?: string; exit?: number; bearing_after?: number };
    name?: string;
    ref?: string;
    mode?: string;
  }
  interface CompileOptions {
    legCount?: number;
    legIndex?: number;
    waypointName?: string;
  }
  interface TextInstructions {
    compile(language: string, step: InstructionStep, options?: CompileOptions): string;
    tokenize(language: string, instruction: string, tokens: Record<string, string>, options?: object): string;
    capitalizeFirstLetter(language: string, text: string): string;
    getWayName(language: string, step: InstructionStep, options?: object): string;
    directionFromDegree(language: string, degree: number): string;
    ordinalize(language: string, number: number): string;
  }
  export default function textInstructions(version: 'v5'): TextInstructions;
}
