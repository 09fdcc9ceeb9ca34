/** Plausible names for generated keys, e.g. "Billing webhook worker (staging)". */

const TEAMS = [
  "Billing",
  "Checkout",
  "Search",
  "Analytics",
  "Notifications",
  "Onboarding",
  "Inventory",
  "Payments",
  "Support",
  "Reporting",
  "Identity",
  "Shipping",
  "Pricing",
  "Marketing",
  "Fraud",
  "Catalog",
] as const;
const PURPOSES = [
  "backend",
  "webhook worker",
  "cron job",
  "mobile app",
  "web app",
  "CLI",
  "data export",
  "integration tests",
  "load tests",
  "partner sync",
  "edge function",
  "batch importer",
  "admin console",
  "metrics collector",
] as const;
const ENVIRONMENTS = ["production", "staging", "development", "preview", "sandbox"] as const;

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

export function generatedKeyName(random: () => number = Math.random): string {
  return `${pick(TEAMS, random)} ${pick(PURPOSES, random)} (${pick(ENVIRONMENTS, random)})`;
}
