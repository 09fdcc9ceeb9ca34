/** How loudly an error panel or an outcome's explanation speaks: its colour and its icon. */
export type Tone = "danger" | "warning" | "info";
