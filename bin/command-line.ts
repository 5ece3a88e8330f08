/**
 * Western longitudes are negative, and `parseArgs` would read `--longitude -0.12` as a missing
 * value followed by an option. For the options named, a following value that starts with a minus
 * sign and a digit is joined to its option (`--longitude=-0.12`, `--stop=-0.12,51.5,Name`).
 */
export function joinNegativeValues(argv: readonly string[], options: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (options.some((option) => argv[i] === `--${option}`) && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${argv[i]}=${next}`);
      i++;
    } else joined.push(argv[i]!);
  }
  return joined;
}
