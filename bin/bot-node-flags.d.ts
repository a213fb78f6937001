export function botNodeFlags(): string[];
