/** What the admin's writes throw for a name or an external id the workspace already has. */
export class ConflictError extends Error {}
