const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** A number in base58, for ids and cursors the server has never handed out (distinct, so never cached). */
export function base58(value: number): string {
  let text = "";
  let rest = value;
  do {
    text = BASE58[rest % 58] + text;
    rest = Math.floor(rest / 58);
  } while (rest > 0);
  return text;
}
