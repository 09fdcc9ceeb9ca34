/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The Base URL the key-entry form suggests, when the API is not where the dashboard is served. */
  readonly VITE_KEYSCOPE_BASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
