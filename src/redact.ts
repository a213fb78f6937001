// Removes known secret values from any text before it is logged, posted or stored.
const MIN_SECRET_LENGTH = 4;

export type Redactor = (text: string) => string;

export function createRedactor(secrets: readonly string[]): Redactor {
  const values = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const value of values) out = out.split(value).join("[redacted]");
    return out;
  };
}
