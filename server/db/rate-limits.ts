/** A rate limit as a key or an identity is given it; an identity's are shared by all its keys. */
export interface NewRateLimit {
  name: string;
  limit: number;
  durationMs: number;
  autoApply: boolean;
}
