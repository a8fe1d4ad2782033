import { Option } from 'commander';

/** `-o/--output`, as in kubectl, with the formats as commander choices. */
export function outputOption(formats: readonly string[], defaultFormat: string): Option {
  return new Option('-o, --output <format>', `output format`)
    .choices([...formats])
    .default(defaultFormat);
}

export function writeJson(stream: { write(s: string): unknown }, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}
