export type DescribedRow<T> = T & { description: string | null };

/** A row with its description, left out when it has none (as the real service omits an empty one). */
export function withDescription<T extends object>(row: T, description: string | null): T & { description?: string } {
  return description === null || description === "" ? row : { ...row, description };
}
