export const FIXTURES: Record<string, string> = {};
